// Dropped files become a batch, after a confirm: the drop is offered (the batch dialog shows the files,
// the per-kind options and the total cost), then each file is made usable by main (uploaded first in the
// browser) and `batch.start` inspects and submits them; `batch.item` / `batch.done` events report each
// file. Main keeps every batch in the data folder: `batch.list` shows them again after a reload or a restart.
import {
  countBatch,
  countJobs,
  describeCounts,
  describeJobs,
  jobsFinished,
  type BatchCounts,
  type BatchItemPhase,
  type BatchJobCounts,
  type BatchJobSeen,
} from '../../shared/batch-counts.ts';
import { itemDetails } from '../../shared/batch-items.ts';
import type { BatchItemView, BatchView, CommandInput, EventPayload } from '../../shared/bridge/contract.ts';
import { getTransport, type FileRef } from '../bridge/index.ts';
import { pushNotice } from './app-state.ts';
import { refreshCredits } from './credits.ts';
import { droppedKind, REFUSED_BY_NAME } from './dropped-kind.ts';
import { readDroppedFolders } from './dropped-folders.ts';
import { Store } from './store.ts';
import { toShownError } from './util.ts';

export type ItemPhase = BatchItemPhase;

export interface QueueItem {
  key: string;
  name: string;
  size?: number;
  phase: ItemPhase;
  sent?: number;
  total?: number;
  error?: string;
  jobId?: string;
  /** The job of the animation prompts asked of an uploaded FBX/zip. */
  promptsJobId?: string;
  /** Index of the file in the batch.start call. */
  index?: number;
}

export interface QueueBatch {
  key: string;
  batchId?: string;
  createdAt: number;
  items: QueueItem[];
  /** Every file has its final state (submitted, refused, failed or cancelled): its jobs may still be queued or running. */
  filesDone?: boolean;
  error?: string;
}

/** What a batch does besides its files: the image-to-3D settings of its pictures, the prompts of its FBX/zip. */
export type BatchChoices = Pick<CommandInput<'batch.start'>, 'imageOptions' | 'animationTexts'>;

/** A file offered for a batch: one of the page (dropped or picked), or one main names by path (a native dialog's). */
export interface OfferedFile {
  name: string;
  size: number;
  file?: File;
  ref?: FileRef;
  /** Why the batch dialog's check refused it (batch-check.ts): it is listed as not sent, and never sent. */
  refused?: string;
}

export const batches = new Store<QueueBatch[]>([]);
/** Files offered and not yet confirmed (the batch dialog shows them). */
export const offeredFiles = new Store<OfferedFile[] | undefined>(undefined);
/**
 * The last state seen of jobs (job events, or batch.jobs for a kept batch's): a batch's jobs are counted from
 * it. `null`: a job deleted from the library since (counted as removed).
 */
export const batchJobs = new Store<ReadonlyMap<string, BatchJobSeen>>(new Map());
/** The batches known to be finished (every job final): each is announced once. */
const ended = new Set<string>();
let nextKey = 1;
let subscribed = false;
/** Events of batches whose id is not known yet (they can arrive before batch.start answers). */
const early = new Map<string, { items: BatchItemView[]; done?: boolean }>();

/** The counts of a batch, as its table and its toast both show them. */
export function batchCounts(batch: QueueBatch): BatchCounts {
  return countBatch(batch.items.map((i) => i.phase));
}

/** The jobs a batch made: of each submitted file its job, and of an FBX/zip with prompts the job of its prompts. */
function batchJobIds(batch: QueueBatch): string[] {
  return batch.items.flatMap((i) => [i.jobId, i.promptsJobId].filter((id): id is string => id !== undefined));
}

export function batchJobCounts(batch: QueueBatch, states = batchJobs.get()): BatchJobCounts {
  return countJobs(batchJobIds(batch).map((id) => states.get(id)));
}

/**
 * Where a batch is: its files still being sent, checked or submitted; `submitted` (every file has its final
 * state, some of its jobs still queued or running at the service); `finished` (every job final too).
 */
export type BatchStage = 'submitting' | 'submitted' | 'finished';

export function batchStage(batch: QueueBatch, states = batchJobs.get()): BatchStage {
  if (!batch.filesDone) return 'submitting';
  return jobsFinished(batchJobCounts(batch, states)) ? 'finished' : 'submitted';
}

/** A drop (or files picked): the batch dialog asks for the options and a confirm before anything is sent. */
export function offerBatch(files: File[]): void {
  if (files.length > 0) offeredFiles.set(files.map((file) => ({ name: file.name, size: file.size, file })));
}

/**
 * A drop: its files are offered, and the files of its folders: the desktop app's main walks a dropped
 * folder (a drop gives paths there); in a browser the folder is read here from the drop's entries
 * (dropped-folders.ts, the same files main would take). `entries[i]`: the drop's entry of file i (null if
 * the browser gives none), taken during the drop event: they cannot be had afterwards.
 */
export async function offerDrop(files: File[], entries: readonly (FileSystemEntry | null)[]): Promise<void> {
  const isFolder = (i: number) => entries[i]?.isDirectory === true;
  if (!files.some((_, i) => isFolder(i))) return offerBatch(files);
  const transport = getTransport();
  if (transport.kind === 'electron') {
    try {
      const refs = await Promise.all(files.map((f) => transport.fileRef(f)));
      offerPaths(
        await transport.api.call('batch.expand', { files: refs.filter((r): r is { path: string } => 'path' in r) }),
      );
    } catch (e) {
      pushNotice('error', `The dropped folders could not be read: ${toShownError(e).message}`);
    }
    return;
  }
  const folders = entries.filter((e): e is FileSystemDirectoryEntry => e?.isDirectory === true);
  const read = await readDroppedFolders(folders);
  if (read.skipped > 0)
    pushNotice(
      'info',
      `${read.skipped} file${read.skipped === 1 ? ' was' : 's were'} left out of those folders: hidden, or not a picture, an FBX or a zip.`,
    );
  if (read.truncated)
    pushNotice(
      'warning',
      `Those folders hold more than ${read.files.length} pictures, FBX and zip files: only the first ${read.files.length} are offered. Drop the rest in parts.`,
    );
  if (read.unreadable.length > 0)
    pushNotice('warning', `The browser could not read ${read.unreadable.join(', ')}: left out.`);
  const all = [...files.filter((_, i) => !isFolder(i)), ...read.files];
  if (all.length === 0) pushNotice('warning', 'Those folders hold no picture, FBX or zip file: nothing to send.');
  else offerBatch(all);
}

/** Files main offers (the desktop app's File › Add Files…, folders walked): the same dialog and confirm. */
export function offerPaths(offer: EventPayload<'batch.offer'>): void {
  if (offer.skipped > 0)
    pushNotice(
      'info',
      `${offer.skipped} file${offer.skipped === 1 ? ' was' : 's were'} left out of those folders: hidden, or not a picture, an FBX or a zip.`,
    );
  if (offer.files.length === 0)
    pushNotice('warning', 'Those folders hold no picture, FBX or zip file: nothing to send.');
  else offeredFiles.set(offer.files.map((f) => ({ name: f.name, size: f.size, ref: { path: f.path } })));
}

function patchBatch(key: string, change: (b: QueueBatch) => QueueBatch) {
  batches.update((list) => list.map((b) => (b.key === key ? change(b) : b)));
}

function patchItem(key: string, itemKey: string, patch: Partial<QueueItem>) {
  patchBatch(key, (b) => ({ ...b, items: b.items.map((i) => (i.key === itemKey ? { ...i, ...patch } : i)) }));
}

function applyItem(batch: QueueBatch, view: BatchItemView): QueueBatch {
  return {
    ...batch,
    items: batch.items.map((i) => (i.index === view.index ? { ...i, phase: view.state, ...itemDetails(view) } : i)),
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
  api.on('job', (job) => {
    const known = batchJobs.get().get(job.id);
    if (known && known.state === job.state && known.final === job.final && known.percent === job.percent) return;
    batchJobs.update((m) => new Map(m).set(job.id, { state: job.state, final: job.final, percent: job.percent }));
    announceEnded(true);
  });
  api.on('batch.done', (done) => {
    const batch = batches.get().find((b) => b.batchId === done.batchId);
    if (!batch) {
      const e = early.get(done.batchId) ?? { items: [] };
      e.done = true;
      early.set(done.batchId, e);
      return;
    }
    finish(batch.key);
  });
}

/**
 * A batch's files have their final states: marked so, then announced with the same counts as its table, as
 * submitted (its jobs still queued or running at the service) or, when every job is already final, finished.
 */
function finish(key: string) {
  patchBatch(key, (b) => ({ ...b, filesDone: true }));
  const batch = batches.get().find((b) => b.key === key);
  if (!batch) return;
  void refreshCredits();
  if (batchStage(batch) === 'finished') return announceEnded(true);
  // Jobs whose event came before this page listened (a failed read leaves them to their next events).
  readJobStates().then(
    () => announceEnded(true),
    () => undefined,
  );
  const counts = batchCounts(batch);
  const trouble = counts.problems + counts.cancelled;
  pushNotice(
    trouble ? 'warning' : 'info',
    `Batch submitted: ${describeCounts(counts)}${trouble ? ' (see the queue for why)' : ''} — ${describeJobs(batchJobCounts(batch))}.`,
  );
}

/** Batches whose every job has become final: announced once each (`announce` false: only noted, e.g. kept ones read at a reload). */
function announceEnded(announce: boolean) {
  const states = batchJobs.get();
  for (const batch of batches.get()) {
    if (ended.has(batch.key) || batchStage(batch, states) !== 'finished') continue;
    ended.add(batch.key);
    if (!announce) continue;
    const files = batchCounts(batch);
    const jobs = batchJobCounts(batch, states);
    const trouble = files.problems + files.cancelled + jobs.failed;
    pushNotice(
      trouble ? 'warning' : 'info',
      `Batch finished: ${describeCounts(files)} — ${describeJobs(jobs)}${trouble ? ' (see the queue for why)' : ''}.`,
    );
  }
}

/** The most job ids one `batch.jobs` read takes (its input's limit). */
const JOBS_PER_READ = 20_000;

/**
 * Reads the states of the batches' jobs not seen yet (a kept batch's after a reload) in one `batch.jobs`
 * call: a job main no longer has was deleted from the library, and is counted as removed.
 */
async function readJobStates(): Promise<void> {
  const { api } = getTransport();
  const known = batchJobs.get();
  const missing = [...new Set(batches.get().flatMap(batchJobIds))].filter((id) => !known.has(id));
  for (let at = 0; at < missing.length; at += JOBS_PER_READ) {
    const ids = missing.slice(at, at + JOBS_PER_READ);
    const { jobs } = await api.call('batch.jobs', { ids });
    const found = new Map(jobs.map(({ id, ...state }) => [id, state]));
    batchJobs.update((m) => {
      const next = new Map(m);
      for (const id of ids) if (!next.has(id)) next.set(id, found.get(id) ?? null);
      return next;
    });
  }
}

/** Jobs deleted from the library (the library's Delete): the batches that made them count them as removed. */
export function noteRemovedJobs(ids: readonly string[]): void {
  const mine = new Set(batches.get().flatMap(batchJobIds));
  if (!ids.some((id) => mine.has(id))) return;
  batchJobs.update((m) => {
    const next = new Map(m);
    for (const id of ids) if (mine.has(id)) next.set(id, null);
    return next;
  });
  announceEnded(true);
}

const CONCURRENT_SENDS = 2;

/** Starts a batch of local files (after the confirm of the batch dialog). */
export async function startBatch(files: readonly OfferedFile[], choices: BatchChoices = {}): Promise<void> {
  if (files.length === 0) return;
  subscribe();
  const transport = getTransport();
  const key = `b${nextKey++}`;
  const items: QueueItem[] = files.map((f, i) => ({
    key: `${key}-${i}`,
    name: f.name,
    size: f.size,
    phase: 'waiting',
  }));
  batches.update((list) => [{ key, createdAt: Date.now(), items }, ...list]);
  const refs: (FileRef | undefined)[] = new Array(files.length);
  const sendErrors: string[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const item = items[i]!;
      const offered = files[i]!;
      if (offered.refused !== undefined || droppedKind(offered) === 'other') {
        // Known from its name, or refused by the dialog's check: not sent.
        sendErrors[i] = `Refused: ${offered.refused ?? `${REFUSED_BY_NAME}.`}`;
        patchItem(key, item.key, { phase: 'send_failed', error: sendErrors[i] });
        continue;
      }
      if (offered.ref) {
        refs[i] = offered.ref; // a file main reads itself
        patchItem(key, item.key, { phase: 'queued' });
        continue;
      }
      patchItem(key, item.key, { phase: 'sending', sent: 0, total: offered.size });
      try {
        refs[i] = await transport.fileRef(offered.file!, (p) =>
          patchItem(key, item.key, { sent: p.sent, total: p.total }),
        );
        patchItem(key, item.key, { phase: 'queued', sent: 0 });
      } catch (e) {
        sendErrors[i] = toShownError(e).message;
        patchItem(key, item.key, { phase: 'send_failed', error: sendErrors[i] });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_SENDS, files.length) }, worker));
  const sendable = refs
    .map((ref, i) => ({ ref, i }))
    .filter((x): x is { ref: FileRef; i: number } => x.ref !== undefined);
  if (sendable.length === 0) {
    patchBatch(key, (b) => ({ ...b, error: 'No file could be sent: see each file for why.', filesDone: true }));
    return;
  }
  // Items are numbered as batch.start sees them.
  patchBatch(key, (b) => ({
    ...b,
    items: b.items.map((it, i) => {
      const at = sendable.findIndex((s) => s.i === i);
      return at < 0 ? it : { ...it, index: at };
    }),
  }));
  const notSent = files.flatMap((f, i) =>
    refs[i] === undefined ? [{ name: f.name, size: f.size, error: sendErrors[i] ?? 'not sent' }] : [],
  );
  try {
    const { batchId } = await transport.api.call('batch.start', {
      files: sendable.map((s) => s.ref),
      ...choices,
      ...(notSent.length && { notSent }),
    });
    // The queue may have listed it from main already (a list read while this answer was on its way).
    batches.update((list) =>
      list.filter((b) => !(b.batchId === batchId && b.key !== key)).map((b) => (b.key === key ? { ...b, batchId } : b)),
    );
    const pending = early.get(batchId);
    if (pending) {
      early.delete(batchId);
      patchBatch(key, (b) => pending.items.reduce(applyItem, b));
      if (pending.done) finish(key);
    }
  } catch (e) {
    patchBatch(key, (b) => ({ ...b, error: toShownError(e).message, filesDone: true }));
  }
}

/** A batch as main keeps it, for the queue. */
export function fromView(view: BatchView): QueueBatch {
  const key = `kept-${view.batchId}`;
  return {
    key,
    batchId: view.batchId,
    createdAt: view.createdAt,
    filesDone: view.finishedAt !== undefined,
    items: [
      ...view.items.map(
        (i): QueueItem => ({
          key: `${key}-${i.index}`,
          name: i.name,
          phase: i.state,
          index: i.index,
          ...itemDetails(i),
        }),
      ),
      ...view.notSent.map(
        (n, k): QueueItem => ({
          key: `${key}-n${k}`,
          name: n.name,
          size: n.size,
          phase: 'send_failed',
          error: n.error,
        }),
      ),
    ],
  };
}

/** Shows the batches main kept (after a reload or a restart) beside those of this page. */
export async function loadKeptBatches(): Promise<void> {
  subscribe();
  try {
    const { batches: kept } = await getTransport().api.call('batch.list', {});
    batches.update((list) => {
      const known = new Set(list.map((b) => b.batchId));
      return [...list, ...kept.filter((v) => !known.has(v.batchId)).map(fromView)].sort(
        (a, b) => b.createdAt - a.createdAt,
      );
    });
    // Their jobs' states, then those already finished are noted (not announced again: they ended before).
    await readJobStates();
    announceEnded(false);
  } catch (e) {
    pushNotice('error', `The earlier batches could not be listed: ${toShownError(e).message}`);
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

/** Clears the finished batches (every job final) here and in the data folder. */
export async function clearFinished(): Promise<void> {
  const isDone = (b: QueueBatch) => batchStage(b) === 'finished';
  const done = batches.get().filter(isDone);
  batches.update((list) => list.filter((b) => !isDone(b)));
  const batchIds = done.flatMap((b) => (b.batchId ? [b.batchId] : []));
  if (batchIds.length === 0) return;
  try {
    await getTransport().api.call('batch.forget', { batchIds });
  } catch (e) {
    pushNotice('error', `The finished batches could not be cleared: ${toShownError(e).message}`);
  }
}
