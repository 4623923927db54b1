// Batches started from the UI (batch.start): files checked and sent one after another in the background
// (main/app/batch.ts), each item's state sent as a `batch.item` event (upload progress thinned), the
// summary as `batch.done`; batch.cancel stops one. Every batch is kept in the data folder (batch-log.ts).
import { randomUUID } from 'node:crypto';
import { itemDetails } from '../../shared/batch-items.ts';
import type { BatchView, CommandInput, EventPayload } from '../../shared/bridge/contract.ts';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { listBatchFiles, runBatch, type BatchItem } from '../app/batch.ts';
import type { Services } from '../app/services.ts';
import type { BatchLog } from './batch-log.ts';
import type { BridgeEvents } from './bridge-events.ts';

/** What a batch is asked to do besides its files. */
export type BatchRequest = Pick<CommandInput<'batch.start'>, 'imageOptions' | 'animationTexts' | 'notSent'>;

export class BridgeBatches {
  readonly #events: BridgeEvents;
  readonly #describe: (error: unknown) => string;
  readonly #running = new Map<string, AbortController>();
  readonly #log: BatchLog;

  /** `describe`: an error in words for the user (redacted). */
  constructor(events: BridgeEvents, describe: (error: unknown) => string, log: BatchLog) {
    this.#events = events;
    this.#describe = describe;
    this.#log = log;
  }

  start(services: Pick<Services, 'submitter'>, paths: string[], request: BatchRequest = {}): { batchId: string } {
    const events = this.#events;
    const log = this.#log;
    const batchId = `batch_${randomUUID()}`;
    const abort = new AbortController();
    this.#running.set(batchId, abort);
    log.begin(batchId, request.notSent ?? []);
    const { imageOptions, animationTexts } = request;
    const onItem = (item: Readonly<BatchItem>) => {
      log.item(batchId, item);
      if (item.state === 'uploading' && !events.due(`${batchId}:${item.index}`, item.sent === item.total)) return;
      events.emit('batch.item', {
        batchId,
        index: item.index,
        name: item.name,
        state: item.state,
        ...itemDetails({
          sent: item.sent,
          total: item.total,
          jobId: item.jobId,
          promptsJobId: item.promptsJobId,
          error: item.error?.replaceAll(item.path, item.name), // not the temp path of an upload
        }),
      });
    };
    runBatch(paths, {
      submitter: services.submitter,
      signal: abort.signal,
      onItem,
      ...(imageOptions && { imageOptions }),
      ...(animationTexts?.length && { animationTexts }),
    })
      .then(
        (s) => {
          log.finish(batchId);
          events.emit('batch.done', {
            batchId,
            total: s.total,
            submitted: s.submitted,
            rejected: s.rejected,
            failed: s.failed,
            cancelled: s.cancelled,
          });
        },
        (error) => {
          log.finish(batchId);
          events.notice('error', `The batch could not run: ${this.#describe(error)}`);
        },
      )
      .finally(() => this.#running.delete(batchId));
    return { batchId };
  }

  /** Files chosen in a native dialog: offered to the UI's batch dialog (folders walked), to confirm before anything is sent. */
  async offer(paths: readonly string[]): Promise<void> {
    this.#events.emit('batch.offer', await this.expand(paths));
  }

  /** The files a batch of these paths would have (folders walked), each with its name and size, and how many are left out. */
  async expand(paths: readonly string[]): Promise<EventPayload<'batch.offer'>> {
    const { files, skipped } = await listBatchFiles(paths);
    const sized = await Promise.all(
      files.map(async (path) => ({
        path,
        name: basename(path),
        size: await stat(path).then(
          (s) => s.size,
          () => 0,
        ),
      })),
    );
    return { files: sized, skipped: skipped.length };
  }

  /** The kept batches, newest first. */
  list(): BatchView[] {
    return this.#log.list();
  }

  forget(batchIds: readonly string[]): number {
    return this.#log.forget(batchIds.filter((id) => !this.#running.has(id)));
  }

  cancel(batchId: string): { cancelled: boolean } {
    const batch = this.#running.get(batchId);
    batch?.abort();
    return { cancelled: batch !== undefined };
  }

  cancelAll(): void {
    for (const abort of this.#running.values()) abort.abort();
  }

  /** Writes the batches' last changes to the data folder (before the app stops). */
  flush(): void {
    this.#log.flush();
  }
}
