// When to read a job next. Pure functions, so the policy can be tested and benchmarked on its own.
//
// - Nothing is read before a job could plausibly end: the first read waits for most of the shortest
//   time a job of its kind takes (a prior per kind and step, scaled like every other timing).
// - When the service reports percent_done, the end is predicted from the rate so far and the next read
//   lands just after it: most such jobs are seen finished on the first read after they end.
// - Otherwise reads get sparser as the job ages (geometric polling): the interval stays a fixed share of
//   the job's age, so the delay in noticing the end stays within max(2 s, 10% of its duration).
// - While a webhook receiver is connected, reads are only a slow safety net; webhooks wake jobs up.
import type { OlderStep, ResourceKind } from '../../shared/contract/lifecycle.ts';
import { shortestDurations } from '../../shared/kinds/index.ts';

export interface PollTiming {
  /** Shortest interval between two reads of one job. */
  minIntervalMs: number;
  /** Shortest interval once a job without percent is due (the 2 s of the delay goal, less jitter). */
  steadyFloorMs: number;
  /** Longest interval between two reads of one job. */
  maxIntervalMs: number;
  /** Interval as a share of the job's age when nothing better is known (10% goal, less jitter). */
  ageFactor: number;
  /** Extra time after a predicted end, as a share of the job's age (progress is rarely exactly linear). */
  etaMarginFactor: number;
  /** Interval while webhooks are trusted to announce changes. */
  webhookSafetyIntervalMs: number;
  /** ± share of random jitter, so many jobs do not read in lockstep. */
  jitter: number;
  /** Shortest plausible duration per kind (`kind` or `kind:step`); no read is made before 90% of it. */
  shortestMs: Readonly<Record<string, number>>;
}

/**
 * Shortest plausible durations at the service, declared by each kind (shared/kinds/): well below what the
 * service usually takes.
 */
const SHORTEST_MS: Record<string, number> = shortestDurations();

export const DEFAULT_TIMING: PollTiming = {
  minIntervalMs: 1_000,
  steadyFloorMs: 1_800,
  maxIntervalMs: 60_000,
  ageFactor: 0.09,
  etaMarginFactor: 0.02,
  webhookSafetyIntervalMs: 10 * 60_000,
  jitter: 0.05,
  shortestMs: SHORTEST_MS,
};

/** Divides every duration by `factor` (the engine's speed factor in tests and benchmarks). */
export function scaleTiming(timing: PollTiming, factor: number): PollTiming {
  return {
    ...timing,
    minIntervalMs: timing.minIntervalMs / factor,
    steadyFloorMs: timing.steadyFloorMs / factor,
    maxIntervalMs: timing.maxIntervalMs / factor,
    webhookSafetyIntervalMs: timing.webhookSafetyIntervalMs / factor,
    shortestMs: Object.fromEntries(Object.entries(timing.shortestMs).map(([k, v]) => [k, v / factor])),
  };
}

export interface PollState {
  now: number;
  /** When the job (or the step awaited) started. */
  startedAt: number;
  kind: ResourceKind;
  step?: OlderStep | undefined;
  percent?: number | undefined;
  webhooks: boolean;
}

export function nextPollDelay(state: PollState, timing: PollTiming, random: () => number = Math.random): number {
  const age = Math.max(0, state.now - state.startedAt);
  const spread = 1 + timing.jitter * (2 * random() - 1);
  if (state.webhooks) return timing.webhookSafetyIntervalMs * spread;
  const p = state.percent;
  if (p !== undefined && p > 0 && p < 100 && age > 0) {
    const remaining = (age * (100 - p)) / p;
    return clamp((remaining + age * timing.etaMarginFactor) * spread, timing.minIntervalMs, timing.maxIntervalMs);
  }
  const shortest = timing.shortestMs[state.step ? `${state.kind}:${state.step}` : state.kind] ?? 0;
  const firstRead = 0.9 * shortest;
  if (age < firstRead) return Math.max(timing.minIntervalMs, firstRead - age);
  return clamp(age * timing.ageFactor * spread, timing.steadyFloorMs, timing.maxIntervalMs);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
