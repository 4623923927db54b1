// What a read of a job's resource means for the job: its state, whether it is final, and the error a user reads
// when it failed (the service's own reason where its answer carries one), or when its status stayed one this
// version does not know for too long.
import type { JobRecord } from '../store/jobs.ts';
import type { Observation } from './resources.ts';

export function outcomeOfRead(
  job: Pick<JobRecord, 'unknownSince'>,
  seen: Observation,
  now: number,
  unknownLimitMs: number,
): { state: JobRecord['state']; final: boolean; error: string | null } {
  const s = seen.status;
  if (s.state === 'unknown' && job.unknownSince !== null && now - job.unknownSince > unknownLimitMs) {
    return {
      state: 'failed',
      final: true,
      error: `The service reported the status "${s.raw}", which this version does not know, for longer than ${Math.round(unknownLimitMs / 60_000)} min. Check the session at the service; update Asset Studio if it finished there.`,
    };
  }
  if (s.state === 'failed') {
    const reason = failureReason(seen.value);
    return {
      state: s.state,
      final: s.final,
      error: reason
        ? `The service reported "${s.raw}": ${reason}`
        : `The service reported "${s.raw}": it could not finish this job. Check the input and create the job again.`,
    };
  }
  return { state: s.state, final: s.final, error: null };
}

/**
 * Why the service says a session failed, where its answer carries it: an `error` text (what the embedded
 * engine answers, e.g. an input it could not read) or an `error` object's `message`; at most 1,000 characters.
 */
export function failureReason(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const error = (value as { error?: unknown }).error;
  const text =
    typeof error === 'string'
      ? error
      : error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string'
        ? (error as { message: string }).message
        : undefined;
  const trimmed = text?.trim();
  return trimmed ? trimmed.slice(0, 1000) : undefined;
}
