// Batches started from the UI (batch.start): files checked and sent one after another in the background
// (main/files/batch.ts), each item's state sent as a `batch.item` event (upload progress thinned), the
// summary as `batch.done`; batch.cancel stops one.
import { randomUUID } from 'node:crypto';
import { runBatch, type BatchItem } from '../files/batch.ts';
import type { Services } from '../app/services.ts';
import type { BridgeEvents } from './bridge-events.ts';

export class BridgeBatches {
  readonly #events: BridgeEvents;
  readonly #describe: (error: unknown) => string;
  readonly #running = new Map<string, AbortController>();

  /** `describe`: an error in words for the user (redacted). */
  constructor(events: BridgeEvents, describe: (error: unknown) => string) {
    this.#events = events;
    this.#describe = describe;
  }

  start(services: Pick<Services, 'submitter'>, paths: string[], imageOptions: Record<string, unknown> | undefined): { batchId: string } {
    const events = this.#events;
    const batchId = `batch_${randomUUID()}`;
    const abort = new AbortController();
    this.#running.set(batchId, abort);
    const onItem = (item: Readonly<BatchItem>) => {
      if (item.state === 'uploading' && !events.due(`${batchId}:${item.index}`, item.sent === item.total)) return;
      events.emit('batch.item', {
        batchId, index: item.index, name: item.name, state: item.state,
        ...(item.sent !== undefined && { sent: item.sent }), ...(item.total !== undefined && { total: item.total }),
        ...(item.jobId !== undefined && { jobId: item.jobId }), ...(item.error !== undefined && { error: item.error.replaceAll(item.path, item.name) }), // not the temp path of an upload
      });
    };
    runBatch(paths, { submitter: services.submitter, signal: abort.signal, onItem, ...(imageOptions && { imageOptions }) })
      .then(
        (s) => events.emit('batch.done', { batchId, total: s.total, submitted: s.submitted, rejected: s.rejected, failed: s.failed, cancelled: s.cancelled }),
        (error) => events.notice('error', `The batch could not run: ${this.#describe(error)}`),
      )
      .finally(() => this.#running.delete(batchId));
    return { batchId };
  }

  cancel(batchId: string): { cancelled: boolean } {
    const batch = this.#running.get(batchId);
    batch?.abort();
    return { cancelled: batch !== undefined };
  }

  cancelAll(): void {
    for (const abort of this.#running.values()) abort.abort();
  }
}
