// When to read a job next. Pure functions, so the policy can be tested and benchmarked on its own.
//
// - Young jobs are read often, old ones less: the interval grows with the job's age (geometric
//   polling), between a floor and a ceiling, so the delay in noticing the end stays a fixed share
//   of the job's duration.
// - When the service reports percent_done, the end is predicted from the rate so far and the next
//   read lands just after it: most jobs are seen finished on the first read after they end.
// - While a webhook receiver is connected, reads are only a slow safety net; webhooks wake jobs up.

export interface PollTiming {
  /** Shortest interval between two reads of one job. */
  minIntervalMs: number;
  /** Longest interval between two reads of one job. */
  maxIntervalMs: number;
  /** Interval as a share of the job's age when nothing better is known. */
  ageFactor: number;
  /** Extra time after a predicted end, as a share of the job's age (progress is rarely exactly linear). */
  etaMarginFactor: number;
  /** Interval while webhooks are trusted to announce changes. */
  webhookSafetyIntervalMs: number;
  /** ± share of random jitter, so many jobs do not read in lockstep. */
  jitter: number;
}

export const DEFAULT_TIMING: PollTiming = {
  minIntervalMs: 1_000,
  maxIntervalMs: 60_000,
  ageFactor: 0.2,
  etaMarginFactor: 0.02,
  webhookSafetyIntervalMs: 10 * 60_000,
  jitter: 0.1,
};

/** Divides every duration by `factor` (the engine's speed factor in tests and benchmarks). */
export function scaleTiming(timing: PollTiming, factor: number): PollTiming {
  return {
    ...timing,
    minIntervalMs: timing.minIntervalMs / factor,
    maxIntervalMs: timing.maxIntervalMs / factor,
    webhookSafetyIntervalMs: timing.webhookSafetyIntervalMs / factor,
  };
}

export interface PollState {
  now: number;
  /** When the job (or the step awaited) started. */
  startedAt: number;
  percent?: number | undefined;
  webhooks: boolean;
}

export function nextPollDelay(state: PollState, timing: PollTiming, random: () => number = Math.random): number {
  const age = Math.max(0, state.now - state.startedAt);
  let delay: number;
  if (state.webhooks) {
    delay = timing.webhookSafetyIntervalMs;
  } else {
    delay = clamp(age * timing.ageFactor, timing.minIntervalMs, timing.maxIntervalMs);
    const p = state.percent;
    if (p !== undefined && p > 0 && p < 100 && age > 0) {
      const remaining = (age * (100 - p)) / p;
      delay = clamp(remaining + age * timing.etaMarginFactor, timing.minIntervalMs, timing.maxIntervalMs);
    }
  }
  const spread = 1 + timing.jitter * (2 * random() - 1);
  return Math.max(timing.minIntervalMs * 0.5, delay * spread);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
