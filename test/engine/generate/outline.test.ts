import { describe, expect, it } from 'vitest';
import { signedDistance } from '../../../main/engine/generate/distance.ts';
import { countFaces, loopArea, tessellate, traceOutlines } from '../../../main/engine/generate/outline.ts';
import { segmentSubject } from '../../../main/engine/generate/segment.ts';
import { picture } from './fixtures.ts';

const chair = segmentSubject(picture('chair.png'));
const sdf = signedDistance(chair.mask);

function polygonArea(t: ReturnType<typeof tessellate>): number {
  let area = 0;
  let offset = 0;
  for (const size of t.sizes) {
    const loop = Array.from(t.polygons.subarray(offset, offset + size));
    area += loopArea(t, loop);
    offset += size;
  }
  return area;
}

describe('signedDistance', () => {
  it('is positive inside, negative outside, and half a pixel from the outline on both sides of it', () => {
    const at = (x: number, y: number) => sdf.data[y * sdf.width + x]!;
    expect(at(256, 270)).toBeGreaterThan(20); // deep in the seat
    expect(at(5, 5)).toBeLessThan(-100);
    // The first column of the chair's left edge and the column just outside it.
    const row = 270;
    let edge = 0;
    while (chair.mask.data[row * 512 + edge] === 0) edge++;
    expect(at(edge, row)).toBeCloseTo(0.5, 5);
    expect(at(edge - 1, row)).toBeCloseTo(-0.5, 5);
  });
});

describe('tessellate', () => {
  it.each([8, 3])('covers the silhouette with counter-clockwise triangles and quads (cells of %d px)', (cell) => {
    const t = tessellate(sdf, chair.box, cell);
    expect(new Set(t.sizes)).toEqual(new Set([3, 4]));
    let offset = 0;
    for (const size of t.sizes) {
      expect(loopArea(t, Array.from(t.polygons.subarray(offset, offset + size)))).toBeGreaterThan(0);
      offset += size;
    }
    // Its area is the subject's, up to what cells of this size cannot follow (thin gaps, fine tips).
    expect(polygonArea(t) / chair.area).toBeGreaterThan(0.97);
    expect(polygonArea(t) / chair.area).toBeLessThan(1.03);
    expect(countFaces(sdf, chair.box, cell, false)).toBe(t.sizes.length);
  });

  it('has a closed outline: loops of rim points, counter-clockwise around the subject and clockwise around its holes', () => {
    const t = tessellate(sdf, chair.box, 3);
    const loops = traceOutlines(t);
    const areas = loops.map((loop) => loopArea(t, loop)).sort((a, b) => b - a);
    expect(areas[0]! / chair.area).toBeGreaterThan(0.97); // the chair's outline encloses it
    // Every rim point is on exactly one loop.
    const onLoops = loops.reduce((sum, loop) => sum + loop.length, 0);
    expect(onLoops).toBe(t.rim.reduce((sum, r) => sum + r, 0));
    // Rim points have zero depth, the others are inside.
    for (const [p, d] of t.depth.entries()) {
      if (t.rim[p]) expect(d).toBe(0);
      else expect(d).toBeGreaterThan(0);
    }
  });

  it('counts faces as triangles when asked: two per quad', () => {
    const t = tessellate(sdf, chair.box, 5);
    const quads = t.sizes.filter((s) => s === 4).length;
    expect(countFaces(sdf, chair.box, 5, true)).toBe(t.sizes.length + quads);
  });
});
