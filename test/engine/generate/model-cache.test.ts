// The engine keeps the last few models it made from pictures (generate/model-cache.ts): one build per spec while
// it is among the last used, the least recently used forgotten first.
import { describe, expect, it } from 'vitest';
import { MODELS_KEPT, modelCache } from '../../../main/engine/generate/model-cache.ts';

describe('modelCache', () => {
  it('builds a model once per spec (compared as JSON) and gives it back after', () => {
    const cache = modelCache<{ seed: string; faces: number }, object>();
    let builds = 0;
    const make = () => ({ n: ++builds });
    const first = cache({ seed: 'a', faces: 10 }, make);
    expect(cache({ seed: 'a', faces: 10 }, make)).toBe(first);
    expect(cache({ seed: 'a', faces: 20 }, make)).not.toBe(first);
    expect(builds).toBe(2);
  });

  it('forgets the least recently used model first, beyond its size', () => {
    const cache = modelCache<number, string>(2);
    const built: number[] = [];
    const get = (spec: number) => cache(spec, () => (built.push(spec), `model ${spec}`));
    get(1);
    get(2);
    get(1); // 1 used again: 2 is now the least recently used
    get(3); // forgets 2
    get(1);
    get(2); // built again
    expect(built).toEqual([1, 2, 3, 2]);
  });

  it('keeps nothing of a build that failed', () => {
    const cache = modelCache<string, string>();
    expect(() =>
      cache('broken', () => {
        throw new Error('not an image');
      }),
    ).toThrow('not an image');
    expect(cache('broken', () => 'made')).toBe('made');
  });

  it('keeps as many models as the worker pool remembers per worker', () => {
    expect(MODELS_KEPT).toBe(4);
  });
});
