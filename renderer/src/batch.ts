// Dropped files become a batch: each file is made usable by main (uploaded first in the browser), then
// `batch.start` inspects and submits them; `batch.item` / `batch.done` events report each file.
import type { BatchItemView, EventPayload } from '../../shared/bridge/contract.ts';
import { getTransport, type FileRef } from '../bridge/index.ts';
import { pushNotice } from './app-state.ts';
import { Store } from './store.ts';
import { toShownError } from './util.ts';

export type ItemPhase = 'waiting' | 'sending' | 'send_failed' | BatchItemView['state'];

export interface QueueItem {
  key: string;
  name: string;
  size: number;
  phase: ItemPhase;
  sent?: number;
  total?: number;
  error?: string;
  jobId?: string;
  /** Index of the file in the batch.start call. */
  index?: number;
}

export interface QueueBatch {
  key: string;
  batchId?: string;
  createdAt: number;
  items: QueueItem[];
  done?: EventPayload<'batch.done'>;
  error?: string;
}

export const batches = new Store<QueueBatch[]>([]);
let nextKey = 1;
let subscribed = false;
/** Events of batches whose id is not known yet (they can arrive before batch.start answers). */
const early = new Map<string, { items: BatchItemView[]; done?: EventPayload<'batch.done'> }>();

function patchBatch(key: string, change: (b: QueueBatch) => QueueBatch) {
  batches.update((list) => list.map((b) => (b.key === key ? change(b) : b)));
}

function patchItem(key: string, itemKey: string, patch: Partial<QueueItem>) {
  patchBatch(key, (b) => ({ ...b, items: b.items.map((i) => (i.key === itemKey ? { ...i, ...patch } : i)) }));
}

function applyItem(batch: QueueBatch, view: BatchItemView): QueueBatch {
  return {
    ...batch,
    items: batch.items.map((i) =>
      i.index === view.index
        ? {
            ...i,
            phase: view.state,
            ...(view.sent !== undefined && { sent: view.sent }),
            ...(view.total !== undefined && { total: view.total }),
            ...(view.jobId !== undefined && { jobId: view.jobId }),
            ...(view.error !== undefined ? { error: view.error } : {}),
          }
        : i,
    ),
  };
}

function subscribe() {
  if (subscribed) return;
  subscribed = true;
  const { api } = getTransport();
  api.on('batch.item', (view) => {
    const batch = batches.get().find((b) => b.batchId === view.batchId);
    if (!batch) {
      const e = early.get(view.batchId) ?? { items: [] };
      e.items.push(view);
      early.set(view.batchId, e);
      return;
    }
    patchBatch(batch.key, (b) => applyItem(b, view));
  });
  api.on('batch.done', (done) => {
    const batch = batches.get().find((b) => b.batchId === done.batchId);
    if (!batch) {
      const e = early.get(done.batchId) ?? { items: [] };
      e.done = done;
      early.set(done.batchId, e);
      return;
    }
    patchBatch(batch.key, (b) => ({ ...b, done }));
    announce(done);
  });
}

function announce(done: EventPayload<'batch.done'>) {
  const problems = done.rejected + done.failed;
  pushNotice(problems ? 'warning' : 'info', `Batch finished: ${done.submitted} of ${done.total} files submitted${problems ? `, ${problems} not (see the queue for why)` : ''}.`);
}

const CONCURRENT_SENDS = 2;

/** Starts a batch of local files (dropped or picked). */
export async function startBatch(files: File[]): Promise<void> {
  if (files.length === 0) return;
  subscribe();
  const transport = getTransport();
  const key = `b${nextKey++}`;
  const items: QueueItem[] = files.map((f, i) => ({ key: `${key}-${i}`, name: f.name, size: f.size, phase: 'waiting' }));
  batches.update((list) => [{ key, createdAt: Date.now(), items }, ...list]);
  const refs: (FileRef | undefined)[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const item = items[i]!;
      patchItem(key, item.key, { phase: 'sending', sent: 0, total: files[i]!.size });
      try {
        refs[i] = await transport.fileRef(files[i]!, (p) => patchItem(key, item.key, { sent: p.sent, total: p.total }));
        patchItem(key, item.key, { phase: 'queued', sent: 0 });
      } catch (e) {
        patchItem(key, item.key, { phase: 'send_failed', error: toShownError(e).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_SENDS, files.length) }, worker));
  const sendable = refs.map((ref, i) => ({ ref, i })).filter((x): x is { ref: FileRef; i: number } => x.ref !== undefined);
  if (sendable.length === 0) {
    patchBatch(key, (b) => ({ ...b, error: 'No file could be sent: see each file for why.' }));
    return;
  }
  // Items are numbered as batch.start sees them.
  patchBatch(key, (b) => ({ ...b, items: b.items.map((it, i) => { const at = sendable.findIndex((s) => s.i === i); return at < 0 ? it : { ...it, index: at }; }) }));
  try {
    const { batchId } = await transport.api.call('batch.start', { files: sendable.map((s) => s.ref) });
    patchBatch(key, (b) => ({ ...b, batchId }));
    const pending = early.get(batchId);
    if (pending) {
      early.delete(batchId);
      patchBatch(key, (b) => {
        let out = b;
        for (const view of pending.items) out = applyItem(out, view);
        return pending.done ? { ...out, done: pending.done } : out;
      });
      if (pending.done) announce(pending.done);
    }
  } catch (e) {
    patchBatch(key, (b) => ({ ...b, error: toShownError(e).message }));
  }
}

export async function cancelBatch(batch: QueueBatch): Promise<void> {
  if (!batch.batchId) return;
  try {
    await getTransport().api.call('batch.cancel', { batchId: batch.batchId });
  } catch (e) {
    pushNotice('error', toShownError(e).message);
  }
}

export function clearFinished(): void {
  batches.update((list) => list.filter((b) => !b.done && !b.error));
}
