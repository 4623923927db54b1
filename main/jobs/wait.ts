// Waits until a resource reaches a final status: polls with a gentle backoff until then.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceClient } from '../api/client.ts';
import { observe, type Observation, type TrackedRef } from './resources.ts';

export class WaitTimeoutError extends Error {
  readonly exitCode = 4;
}

export interface WaitOptions {
  timeoutMs?: number;
  /** First delay between reads; grows by half up to maxIntervalMs while nothing changes. */
  intervalMs?: number;
  maxIntervalMs?: number;
  signal?: AbortSignal;
  onUpdate?: (o: Observation) => void;
}

export async function waitForFinal(client: ServiceClient, ref: TrackedRef, options: WaitOptions = {}): Promise<Observation> {
  const { timeoutMs = 30 * 60_000, intervalMs = 500, maxIntervalMs = 5_000, signal } = options;
  const deadline = Date.now() + timeoutMs;
  let delay = intervalMs;
  let last = '';
  for (;;) {
    const seen = await observe(client, ref, signal);
    options.onUpdate?.(seen);
    if (seen.status.final) return seen;
    const key = `${seen.status.raw}/${seen.status.percent ?? ''}`;
    delay = key === last ? Math.min(maxIntervalMs, delay * 1.5) : intervalMs;
    last = key;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new WaitTimeoutError(
        `${ref.id} is still ${seen.status.raw} after ${Math.round(timeoutMs / 1000)} s. It keeps running at the service: check it later with "asset-studio get ${ref.id}", or wait longer with --timeout.`,
      );
    }
    await sleep(Math.min(delay, left), undefined, signal ? { signal } : undefined);
  }
}
