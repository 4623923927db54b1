// The key arithmetic every clip writer and reader shares (main/formats/rig-math.ts): how many keys a clip gets
// and at which times, and keeping neighbouring rotation keys in one hemisphere.
import { describe, expect, it } from 'vitest';
import { keyTimes, sameHemisphere } from '../../main/formats/rig-math.ts';

describe('keyTimes', () => {
  it('samples a clip at the rate, both ends included, evenly from 0', () => {
    expect(keyTimes(1, 4)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(keyTimes(0.5, 24)).toHaveLength(13);
    expect(keyTimes(0.5, 24).at(-1)).toBe(0.5);
  });

  it('keeps two keys for a clip of no length, and at most maxKeys for a long one', () => {
    expect(keyTimes(0, 30)).toEqual([0, 0]);
    const long = keyTimes(600, 30, 2000);
    expect(long).toHaveLength(2000);
    expect(long[0]).toBe(0);
    expect(long.at(-1)).toBe(600);
  });
});

describe('sameHemisphere', () => {
  const q = [0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)];

  it('keeps a rotation on the side of its neighbour, and turns the other one round (the same rotation)', () => {
    expect(sameHemisphere(q, [0, 0, 0, 1])).toEqual(q);
    expect(sameHemisphere(q, [0, 0, 0, -1])).toEqual(q.map((x) => -x));
    expect(sameHemisphere(q, undefined)).toEqual(q);
  });

  it('reads the neighbour at an offset of a key array (xyzw per key)', () => {
    const keys = new Float32Array([0, 0, 0, 1, 0, 0, 0, -1]);
    expect(sameHemisphere(q, keys, 0)).toEqual(q);
    expect(sameHemisphere(q, keys, 4)).toEqual(q.map((x) => -x));
  });
});
