// Retry timing: jittered exponential backoff and the Retry-After header.

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** Uniform in [0, 1); injectable for tests. */
  random?: () => number;
}

/**
 * "Full jitter": a random delay in [0, min(maxMs, baseMs * 2^(attempt - 1))), in whole ms.
 * `attempt` is 1 for the first retry.
 */
export function backoffDelay(attempt: number, { baseMs, maxMs, random = Math.random }: BackoffOptions): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Longest wait honoured from a Retry-After header. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Retry-After as delta-seconds (`120`) or an HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`), in ms from `now`,
 * clamped to [0, MAX_RETRY_AFTER_MS]; undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  let ms: number;
  if (/^\d+$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const date = Date.parse(value);
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
