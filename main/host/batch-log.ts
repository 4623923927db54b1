// The batches of dropped files, kept in the data folder (batches.json, written durably after changes of
// items' states, at most every SAVE_MS, never for bytes sent; at once when a batch starts or ends, and
// on close), so the queue shows them again after a reload or a restart. A
// batch found unfinished when the app starts was cut off by the stop: its files not yet submitted are
// marked so, with what to do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { itemDetails } from '../../shared/batch-items.ts';
import { batchView, type BatchView } from '../../shared/bridge/contract.ts';
import { writeFileDurableSync } from '../durable/write-file.ts';
import type { BatchItem } from '../app/batch.ts';

/** How many batches are kept (the oldest finished ones are forgotten first). */
export const KEPT_BATCHES = 50;
/** Changes of items are written together, at most this often (a batch of thousands of files is not rewritten per change). */
export const SAVE_MS = 500;
const FINAL = new Set<string>(['rejected', 'submitted', 'failed', 'cancelled']);
export const INTERRUPTED =
  'Asset Studio stopped before this file was submitted. Drop it again; if it was being sent, look under Queue › Needs attention first so it is not sent twice.';

export class BatchLog {
  readonly path: string;
  #batches: BatchView[];
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #notice: (message: string) => void;

  /** Reads the batches of a data folder; `notice` hears of a file that could not be read (it is then started afresh). */
  constructor(dataDir: string, notice: (message: string) => void = () => {}) {
    this.path = join(dataDir, 'batches.json');
    this.#notice = notice;
    this.#batches = read(this.path, notice);
    let cut = false;
    for (const batch of this.#batches) {
      if (batch.finishedAt !== undefined) continue;
      cut = true;
      for (const item of batch.items)
        if (!FINAL.has(item.state)) Object.assign(item, { state: 'cancelled', error: INTERRUPTED });
      batch.finishedAt = Date.now();
    }
    if (cut) this.#save();
  }

  /** Newest first. */
  list(): BatchView[] {
    return structuredClone(this.#batches);
  }

  begin(batchId: string, notSent: BatchView['notSent']): void {
    this.#batches.unshift({ batchId, createdAt: Date.now(), items: [], notSent });
    const finished = this.#batches.filter((b) => b.finishedAt !== undefined);
    while (this.#batches.length > KEPT_BATCHES && finished.length > 0)
      this.#batches.splice(this.#batches.indexOf(finished.pop()!), 1);
    this.#save();
  }

  /** An item's change: saved when its state, job or error changed (bytes sent are not kept). */
  item(batchId: string, item: Readonly<BatchItem>): void {
    const batch = this.#batches.find((b) => b.batchId === batchId);
    if (!batch) return;
    const next: BatchView['items'][number] = {
      index: item.index,
      name: item.name,
      state: item.state,
      ...itemDetails({
        size: item.inspected?.size,
        jobId: item.jobId,
        promptsJobId: item.promptsJobId,
        error: item.error?.replaceAll(item.path, item.name),
      }),
    };
    const at = batch.items.findIndex((i) => i.index === item.index);
    const before = at < 0 ? undefined : batch.items[at]!;
    if (
      before &&
      before.state === next.state &&
      before.jobId === next.jobId &&
      before.promptsJobId === next.promptsJobId &&
      before.error === next.error
    )
      return;
    if (at < 0) batch.items.push(next);
    else
      batch.items[at] = {
        ...next,
        ...(next.size === undefined && before?.size !== undefined && { size: before.size }),
      };
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        try {
          this.flush();
        } catch (error) {
          this.#notice(
            `The batches could not be saved in ${this.path} (${(error as Error).message}): after a restart the queue may not show their last states.`,
          );
        }
      }, SAVE_MS);
      this.#timer.unref?.();
    }
  }

  finish(batchId: string): void {
    const batch = this.#batches.find((b) => b.batchId === batchId);
    if (!batch) return;
    batch.finishedAt = Date.now();
    this.#save();
  }

  /** Forgets these batches if they are finished; returns how many were. */
  forget(batchIds: readonly string[]): number {
    const before = this.#batches.length;
    this.#batches = this.#batches.filter((b) => !(batchIds.includes(b.batchId) && b.finishedAt !== undefined));
    if (this.#batches.length !== before) this.#save();
    return before - this.#batches.length;
  }

  /** Writes what changed now (called on close). */
  flush(): void {
    if (this.#timer === undefined) return;
    this.#save();
  }

  #save(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    writeFileDurableSync(this.path, JSON.stringify({ version: 1, batches: this.#batches }));
  }
}

const file = z.object({ version: z.literal(1), batches: z.array(batchView) });

function read(path: string, notice: (message: string) => void): BatchView[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      notice(
        `The list of dropped-file batches (${path}) could not be read (${(error as Error).message}): the queue starts empty.`,
      );
    return [];
  }
  const parsed = file.safeParse(
    (() => {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    })(),
  );
  if (!parsed.success) {
    notice(
      `The list of dropped-file batches (${path}) is not one this version can read: the queue starts empty, and the file is replaced at the next batch.`,
    );
    return [];
  }
  return parsed.data.batches;
}
