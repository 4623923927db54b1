// The visual hull's voxel faces and the surface they make: every face counter-clockwise seen from outside.
import { describe, expect, it } from 'vitest';
import { buildHullModel, VOXEL_FACES } from '../../../main/engine/generate/visual-hull.ts';
import { closedSurfaceProblems } from './fixtures.ts';

const cross = (a: number[], b: number[]) => [
  a[1]! * b[2]! - a[2]! * b[1]!,
  a[2]! * b[0]! - a[0]! * b[2]!,
  a[0]! * b[1]! - a[1]! * b[0]!,
];
const minus = (a: readonly number[], b: readonly number[]) => a.map((x, k) => x - b[k]!);

/** A white picture with a dark rectangle standing on its bottom part. */
function subject(width: number, height: number, box: { x0: number; x1: number; y0: number; y1: number }) {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) data.set([30, 60, 150, 255], (y * width + x) * 4);
  return { width, height, data };
}

describe('visual hull voxel faces', () => {
  it('has one face per side of a voxel, on that side, counter-clockwise seen from outside', () => {
    expect(VOXEL_FACES.map((f) => f.toward)).toEqual([
      [1, 0, 0],
      [-1, 0, 0],
      [0, 1, 0],
      [0, -1, 0],
      [0, 0, 1],
      [0, 0, -1],
    ]);
    for (const { toward, corners } of VOXEL_FACES) {
      expect(corners).toHaveLength(4);
      const axis = toward.findIndex((x) => x !== 0);
      for (const c of corners) expect(c[axis]).toBe(toward[axis]! > 0 ? 1 : 0);
      expect(new Set(corners.map((c) => c.join())).size).toBe(4);
      for (let k = 0; k < 4; k++) {
        const [a, b, c] = [corners[k]!, corners[(k + 1) % 4]!, corners[(k + 2) % 4]!];
        expect(cross(minus(b, a), minus(c, b)).map((x) => x + 0)).toEqual([...toward]);
      }
    }
  });

  it('makes a closed surface whose quads face away from a box subject', () => {
    const front = subject(80, 80, { x0: 20, x1: 60, y0: 10, y1: 70 });
    const side = subject(80, 80, { x0: 30, x1: 50, y0: 10, y1: 70 });
    const { mesh } = buildHullModel({ front: 'f', side: 's', faces: 5_000, quads: true, texture: 'none' }, front, side);
    expect(closedSurfaceProblems(mesh)).toEqual([]);
    const p = (i: number) => [mesh.positions[i * 3]!, mesh.positions[i * 3 + 1]!, mesh.positions[i * 3 + 2]!];
    const centre = [0, 1, 2].map((k) => {
      const values = mesh.positions.filter((_, i) => i % 3 === k);
      return (Math.min(...values) + Math.max(...values)) / 2;
    });
    for (let q = 0; q < mesh.polygons.length; q += 4) {
      const [a, b, c] = [p(mesh.polygons[q]!), p(mesh.polygons[q + 1]!), p(mesh.polygons[q + 2]!)];
      const normal = cross(minus(b, a), minus(c, b));
      const outwards = minus(a, centre).reduce((sum, x, k) => sum + x * normal[k]!, 0);
      expect(outwards).toBeGreaterThan(0);
    }
  });
});
