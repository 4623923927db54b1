// Time-based progress: a step's state is derived from when it started, its base duration and the
// engine's speed factor, so it survives restarts and needs no timers.

/** Realistic durations at speed 1. */
export const BASE_DURATION_MS = {
  mesh: 60_000,
  upload: 3_000,
  spin: 20_000,
  preview: 40_000,
  refine: 90_000,
  tti: 15_000,
  style: 120_000,
  animation: 60_000,
  prompt: 45_000,
  swift: 7.5 * 60_000,
  precision: 30 * 60_000,
} as const;

export type StepName = keyof typeof BASE_DURATION_MS;

export interface Step {
  name: StepName;
  /** Epoch milliseconds. */
  startedAt: number;
}

/** Running statuses of a step: `[until, status]` pairs, `until` a fraction of the step in (0, 1]. */
export type Phases = readonly (readonly [until: number, status: string])[];

export interface Clock {
  /** Epoch milliseconds at which the step ends. */
  end(step: Step): number;
  /** Elapsed share of the step, 0 to 1. */
  fraction(step: Step, now: number): number;
}

/**
 * Real jobs never take exactly their typical time: each step runs 0.7 to 1.3 times its base duration,
 * derived from its start time and name so that it is the same after a restart.
 */
export function durationScale(step: Step): number {
  let h = Math.floor(step.startedAt) % 2_147_483_647;
  for (const c of step.name) h = Math.imul(h ^ c.charCodeAt(0), 2_654_435_761) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 2_246_822_519) >>> 0;
  return 0.7 + (h % 601) / 1000;
}

export function makeClock(speed: number): Clock {
  const duration = (step: Step) => (BASE_DURATION_MS[step.name] * durationScale(step)) / speed;
  return {
    end: (step) => step.startedAt + duration(step),
    fraction: (step, now) => Math.min(1, Math.max(0, (now - step.startedAt) / duration(step))),
  };
}

export function phaseStatus(phases: Phases, fraction: number): string {
  return (phases.find(([until]) => fraction < until) ?? phases.at(-1)!)[1];
}

/** Percent of a step that has not finished yet: 0 to 99. */
export const runningPercent = (fraction: number): number => Math.min(99, Math.floor(fraction * 100));

export interface Stepped {
  step?: Step | undefined;
}

/**
 * Finishes every step of `item` that has ended by `now`, in order: `finish` records the outcome and may
 * start the next step (which then starts when the previous one ended). Returns whether anything changed.
 */
export function settle<T extends Stepped>(
  item: T,
  clock: Clock,
  now: number,
  finish: (item: T, step: StepName, endedAt: number) => void,
): boolean {
  let changed = false;
  while (item.step && clock.end(item.step) <= now) {
    const { name } = item.step;
    const endedAt = clock.end(item.step);
    delete item.step;
    finish(item, name, endedAt);
    changed = true;
  }
  return changed;
}
