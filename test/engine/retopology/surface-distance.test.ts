// The sampled Hausdorff distance that the retopology tests and bench/retopology measure with, on shapes
// whose distances are known.
import { describe, expect, it } from 'vitest';
import { SurfaceIndex, surfaceDistance, type Surface } from '../../../main/engine/retopology/surface-distance.ts';

/** An n × n grid over the unit square at height z, as triangles. */
function square(n: number, z: number, size = 1): Surface {
  const positions: number[] = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.push((i / n) * size, (j / n) * size, z);
  const triangles: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      triangles.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  }
  return { positions: Float32Array.from(positions), triangles: Uint32Array.from(triangles) };
}

describe('surface distance', () => {
  it('finds the closest point on a triangle: above it, beyond an edge, beyond a corner', () => {
    const index = new SurfaceIndex(square(8, 0));
    expect(index.distance(0.3, 0.6, 0.25)).toBeCloseTo(0.25, 6);
    expect(index.distance(1.5, 0.5, 0)).toBeCloseTo(0.5, 6);
    expect(index.distance(-0.3, -0.4, 0)).toBeCloseTo(0.5, 6);
  });

  it('agrees with a brute-force closest point in every region of a triangle (inside, beyond each edge and corner)', () => {
    const corners = [
      [0.2, -0.1, 0.3],
      [1.4, 0.3, -0.2],
      [0.5, 1.1, 0.6],
    ];
    const index = new SurfaceIndex({
      positions: Float32Array.from(corners.flat()),
      triangles: Uint32Array.of(0, 1, 2),
    });
    const [a, b, c] = corners as [number[], number[], number[]];
    const at = (u: number, v: number) => a.map((x, k) => x + u * (b[k]! - x) + v * (c[k]! - x));
    // The triangle sampled finely (barycentric grid): the nearest sample is within a hair of the true distance.
    const samples: number[][] = [];
    const n = 300;
    for (let i = 0; i <= n; i++) for (let j = 0; i + j <= n; j++) samples.push(at(i / n, j / n));
    const f32 = (v: number[]) => v.map((x) => Math.fround(x));
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let k = 0; k < 60; k++) {
      const q = [random() * 3 - 1, random() * 3 - 1, random() * 2 - 1];
      const brute = Math.min(...samples.map((s) => Math.hypot(...f32(s).map((x, c) => x - q[c]!))));
      const d = index.distance(q[0]!, q[1]!, q[2]!);
      expect(d).toBeLessThanOrEqual(brute + 1e-6);
      expect(d).toBeGreaterThan(brute - 0.01);
    }
  });

  it('is the offset between two parallel squares, and the overhang of a larger one, both ways', () => {
    const flat = square(10, 0);
    expect(surfaceDistance(flat, square(3, 0.1), 2_000).hausdorff).toBeCloseTo(0.1, 5);
    const larger = square(6, 0, 1.5);
    const d = surfaceDistance(flat, larger, 5_000);
    expect(d.aToB).toBeCloseTo(0, 6); // the unit square lies on the larger one
    expect(d.bToA).toBeCloseTo(Math.hypot(0.5, 0.5), 3); // the larger one's far corner is √0.5 from the unit square
    expect(d.hausdorff).toBe(d.bToA);
  });
});
