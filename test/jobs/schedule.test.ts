// The polling policy on its own: what the next delay is for a given job age, percent and kind.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMING, nextPollDelay, scaleTiming, type PollState } from '../../main/jobs/schedule.ts';

const noJitter = () => 0.5;
const at = (ageMs: number, extra: Partial<PollState> = {}): number =>
  nextPollDelay(
    { now: 1_000_000 + ageMs, startedAt: 1_000_000, kind: 'text_to_image', webhooks: false, ...extra },
    DEFAULT_TIMING,
    noJitter,
  );

describe('next poll delay', () => {
  it('waits for most of the shortest plausible duration before the first read', () => {
    expect(at(0)).toBe(0.9 * 8_000);
    expect(at(0, { kind: 'v3_session' })).toBe(0.9 * 4 * 60_000);
    expect(at(0, { kind: 'image_to_3d_older', step: 'refine' })).toBe(0.9 * 45_000);
  });

  it('then reads at a share of the age, within the 2 s / 10% goal', () => {
    expect(at(10_000)).toBe(DEFAULT_TIMING.steadyFloorMs);
    expect(at(100_000)).toBeCloseTo(9_000);
    expect(at(100_000)).toBeLessThanOrEqual(0.1 * 100_000);
    expect(at(10 * 3_600_000)).toBe(DEFAULT_TIMING.maxIntervalMs);
  });

  it('lands just after the end predicted from percent_done', () => {
    // 40 s in, 80% done: 10 s left, plus a margin of 2% of the age.
    expect(at(40_000, { kind: 'image_to_3d', percent: 80 })).toBeCloseTo(10_000 + 800);
    expect(at(40_000, { kind: 'image_to_3d', percent: 1 })).toBe(DEFAULT_TIMING.maxIntervalMs);
    expect(at(40_000, { kind: 'image_to_3d', percent: 99.9 })).toBe(DEFAULT_TIMING.minIntervalMs);
  });

  it('is only a slow safety net while webhooks announce changes', () => {
    expect(at(5_000, { webhooks: true })).toBe(DEFAULT_TIMING.webhookSafetyIntervalMs);
  });

  it('scales every duration with the speed factor', () => {
    const fast = scaleTiming(DEFAULT_TIMING, 100);
    expect(fast.shortestMs.text_to_image).toBe(80);
    expect(
      nextPollDelay({ now: 10, startedAt: 0, kind: 'text_to_image', webhooks: false }, fast, noJitter),
    ).toBeCloseTo(62);
  });
});
