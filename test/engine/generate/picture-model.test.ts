import { describe, expect, it } from 'vitest';
import { buildPictureModel } from '../../../main/engine/generate/picture-model.ts';
import { quadShare } from '../../../main/engine/outputs/polygon-mesh.ts';
import { bounds } from '../../../main/formats/glb.ts';
import { closedSurfaceProblems, picture, PICTURES, pictureSpec } from './fixtures.ts';

const spec = pictureSpec;
const size = (positions: Float32Array) => {
  const { min, max } = bounds(positions);
  return max.map((v, k) => v - min[k]!);
};

describe('a model from the picture', () => {
  it.each(PICTURES)('%s: a closed, consistently oriented surface', (name) => {
    const model = buildPictureModel(spec({ faces: 2_000, quads: true }), picture(name));
    expect(closedSurfaceProblems(model.mesh)).toEqual([]);
    // Normals are unit length.
    for (let i = 0; i < model.mesh.normals.length; i += 3) {
      expect(Math.hypot(model.mesh.normals[i]!, model.mesh.normals[i + 1]!, model.mesh.normals[i + 2]!)).toBeCloseTo(
        1,
        4,
      );
    }
  });

  it.each([
    [2_000, false],
    [2_000, true],
    [20_000, false],
    [20_000, true],
  ] as const)('stays within %d faces and uses most of them (quads: %s)', (faces, quads) => {
    for (const name of PICTURES) {
      const { mesh } = buildPictureModel(spec({ faces, quads }), picture(name));
      expect(mesh.sizes.length, name).toBeLessThanOrEqual(faces);
      expect(mesh.sizes.length, name).toBeGreaterThan(0.9 * faces);
      if (quads) expect(quadShare(mesh), name).toBeGreaterThan(0.85);
      else expect(quadShare(mesh), name).toBe(0);
    }
  });

  it('is as wide and tall as the silhouette, 1 m on its longer side, and thinner than it is tall', () => {
    const { mesh, segmentation } = buildPictureModel(spec(), picture('chair.png'));
    const [w, h, d] = size(mesh.positions) as [number, number, number];
    const { box } = segmentation;
    expect(h).toBeCloseTo(1, 5);
    expect(w / h).toBeCloseTo((box.x1 - box.x0) / (box.y1 - box.y0), 1);
    expect(d).toBeGreaterThan(0.05);
    expect(d).toBeLessThan(0.4);
  });

  it('fills a scaled_bbox exactly, or keeps its proportions in it with preserve_aspect_ratio', () => {
    const exact = buildPictureModel(spec({ scale: [2, 1, 0.5] }), picture('robot.png'));
    for (const [k, v] of size(exact.mesh.positions).entries()) expect(v).toBeCloseTo([2, 1, 0.5][k]!, 4);
    const kept = buildPictureModel(spec({ scale: [2, 1, 0.5], preserveAspectRatio: true }), picture('robot.png'));
    const natural = size(buildPictureModel(spec(), picture('robot.png')).mesh.positions);
    const got = size(kept.mesh.positions);
    for (const [k, v] of got.entries()) expect(v).toBeLessThanOrEqual([2, 1, 0.5][k]! + 1e-5);
    expect(got.some((v, k) => Math.abs(v - [2, 1, 0.5][k]!) < 1e-5)).toBe(true);
    for (const [k, v] of got.entries()) expect(v / got[1]!).toBeCloseTo(natural[k]! / natural[1]!, 4);
    // -1 keeps the natural size on that axis.
    const partly = size(buildPictureModel(spec({ scale: [-1, 3, -1] }), picture('robot.png')).mesh.positions);
    expect(partly[1]).toBeCloseTo(3, 4);
    expect(partly[0]).toBeCloseTo(natural[0]!, 4);
  });

  it.each([
    [[0, 0, 0], 'centre'],
    [[0, -0.5, 0], 'bottom centre'],
    [[0.5, 0.5, -0.5], 'a corner'],
  ] as const)('puts the pivot %j (%s) at the origin', (pivot, _where) => {
    const { mesh } = buildPictureModel(spec({ pivot: [...pivot] }), picture('chair.png'));
    const { min, max } = bounds(mesh.positions);
    for (let k = 0; k < 3; k++) expect(min[k]! + (pivot[k]! + 0.5) * (max[k]! - min[k]!)).toBeCloseTo(0, 5);
  });

  it('turns by quarter turns about the vertical axis: a turn shows the side at the front', () => {
    const front = size(buildPictureModel(spec(), picture('chair.png')).mesh.positions);
    const side = size(buildPictureModel(spec({ turn: 1 }), picture('chair.png')).mesh.positions);
    // Natural size is 1 m on the longest side either way; the depth and width swap.
    expect(side[0]! / side[1]!).toBeCloseTo(front[2]! / front[1]!, 4);
    expect(side[2]! / side[1]!).toBeCloseTo(front[0]! / front[1]!, 4);
  });

  it("has no texture for texture_model none, but the picture's average colour", () => {
    const model = buildPictureModel(spec({ texture: 'none' }), picture('fox.jpg'));
    expect(model.atlas).toBeUndefined();
    const [r, g, b] = model.color;
    expect(r).toBeGreaterThan(g + 0.15); // an orange fox
    expect(g).toBeGreaterThan(b);
  });
});
