// Retopology of real fixtures and of meshes made here to show one rule each: face budgets (swift at most
// 8,000 faces, precision a high count), quads, the input's place and size, the result on the input's
// surface, open borders and UV seams kept.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { boundsOf, diagonalOf, type FaceMesh, faceCount, type TriangleMesh } from '../../../main/mesh/mesh.ts';
import { readInputMesh } from '../../../main/engine/retopology/read-input.ts';
import { retopologize } from '../../../main/engine/retopology/retopologize.ts';
import {
  type Surface,
  SurfaceIndex,
  surfaceDistance,
  surfaceOf,
} from '../../../main/engine/retopology/surface-distance.ts';
import { weld } from '../../../main/engine/retopology/weld.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'real', 'glb');
const SWIFT = 8_000;
const PRECISION = 30_000;

const inputs: Record<string, TriangleMesh> = {};
beforeAll(async () => {
  for (const name of ['2CylinderEngine', 'm2m-sample-rig', 'Fox', 'BoxTextured'])
    inputs[name] = await readInputMesh(join(FIXTURES, `${name}.glb`));
});

const quadShare = (mesh: FaceMesh) => mesh.quads.length / 4 / faceCount(mesh);

/** An input's surface, its index (built once: the engine's has 121K triangles) and its diagonal. */
const surfaces = new Map<TriangleMesh, { surface: Surface; index: SurfaceIndex; diagonal: number }>();
async function surfaceOfInput(input: TriangleMesh) {
  let known = surfaces.get(input);
  if (known === undefined) {
    const welded = await weld(input);
    const surface = { positions: welded.positions, triangles: welded.indices };
    known = { surface, index: new SurfaceIndex(surface), diagonal: diagonalOf(boundsOf(welded.positions)) };
    surfaces.set(input, known);
  }
  return known;
}

/** The largest distance from a vertex of the result to the input's surface, over the input's diagonal. */
async function vertexOffSurface(result: FaceMesh, input: TriangleMesh): Promise<number> {
  const { index, diagonal } = await surfaceOfInput(input);
  let worst = 0;
  for (let v = 0; v < result.positions.length / 3; v++)
    worst = Math.max(
      worst,
      index.distance(result.positions[v * 3]!, result.positions[v * 3 + 1]!, result.positions[v * 3 + 2]!),
    );
  return worst / diagonal;
}

/** Sampled symmetric Hausdorff distance between result and input, over the input's diagonal. */
async function hausdorff(result: FaceMesh, input: TriangleMesh, samples = 2_000): Promise<number> {
  const { surface, index, diagonal } = await surfaceOfInput(input);
  return surfaceDistance(surfaceOf(result), surface, samples, index).hausdorff / diagonal;
}

/** The largest gap between the bounding boxes of result and input, over the input's diagonal. */
function boxGap(result: FaceMesh, input: TriangleMesh): number {
  const a = boundsOf(result.positions);
  const b = boundsOf(input.positions, input.indices);
  const gap = Math.max(...[0, 1, 2].flatMap((k) => [Math.abs(a.min[k]! - b.min[k]!), Math.abs(a.max[k]! - b.max[k]!)]));
  return gap / diagonalOf(b);
}

describe('face budgets', () => {
  it('swift: at most 8,000 faces of a 121K-triangle CAD model, quads or triangles, and most of the budget used', async () => {
    const input = inputs['2CylinderEngine']!;
    expect(input.indices.length / 3).toBeGreaterThan(100_000);
    for (const quads of [true, false]) {
      const { mesh } = await retopologize(input, { faces: SWIFT, quads });
      expect(faceCount(mesh), `quads=${quads}`).toBeLessThanOrEqual(SWIFT);
      expect(faceCount(mesh), `quads=${quads}`).toBeGreaterThan(0.9 * SWIFT);
      if (quads) expect(mesh.quads.length).toBeGreaterThan(0);
      else expect(mesh.quads.length).toBe(0);
    }
  });

  it('precision: a high count that keeps detail (30,000 faces of the engine, closer to it than swift)', async () => {
    const input = inputs['2CylinderEngine']!;
    const dense = await retopologize(input, { faces: PRECISION, quads: true });
    const light = await retopologize(input, { faces: SWIFT, quads: true });
    expect(faceCount(dense.mesh)).toBeLessThanOrEqual(PRECISION);
    expect(faceCount(dense.mesh)).toBeGreaterThan(0.9 * PRECISION);
    expect(await hausdorff(dense.mesh, input)).toBeLessThan(await hausdorff(light.mesh, input));
    expect(await hausdorff(dense.mesh, input)).toBeLessThan(0.005); // within 0.5% of the model's size
  });

  it('never adds faces to a light input: BoxTextured is 6 quads, Fox keeps its 576 triangles as quads and triangles', async () => {
    const box = await retopologize(inputs.BoxTextured!, { faces: SWIFT, quads: true });
    expect(box.mesh.quads.length / 4).toBe(6);
    expect(box.mesh.triangles.length).toBe(0);
    const fox = await retopologize(inputs.Fox!, { faces: SWIFT, quads: false });
    expect(faceCount(fox.mesh)).toBe(576);
  });

  it('holds a small budget too', async () => {
    for (const faces of [300, 1_000]) {
      const { mesh } = await retopologize(inputs['m2m-sample-rig']!, { faces, quads: true });
      expect(faceCount(mesh)).toBeLessThanOrEqual(faces);
      expect(faceCount(mesh)).toBeGreaterThan(0.8 * faces);
    }
  });
});

describe('quads', () => {
  it('pairs near-planar, near-rectangular triangles: most of a quad-modelled character, a good share of a low-poly fox', async () => {
    const rig = await retopologize(inputs['m2m-sample-rig']!, { faces: SWIFT, quads: true });
    expect(quadShare(rig.mesh)).toBeGreaterThan(0.7);
    const fox = await retopologize(inputs.Fox!, { faces: SWIFT, quads: true });
    expect(quadShare(fox.mesh)).toBeGreaterThan(0.3);
    // Every quad is convex and wound like the triangles it replaces (its normal agrees with both halves).
    for (const mesh of [rig.mesh, fox.mesh]) {
      const p = mesh.positions;
      const normal = (a: number, b: number, c: number) => {
        const u = [0, 1, 2].map((k) => p[b * 3 + k]! - p[a * 3 + k]!);
        const v = [0, 1, 2].map((k) => p[c * 3 + k]! - p[a * 3 + k]!);
        return [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
      };
      for (let q = 0; q < mesh.quads.length; q += 4) {
        const [a, b, c, d] = Array.from(mesh.quads.subarray(q, q + 4));
        const n1 = normal(a!, b!, c!);
        const n2 = normal(a!, c!, d!);
        expect(n1[0]! * n2[0]! + n1[1]! * n2[1]! + n1[2]! * n2[2]!).toBeGreaterThan(0);
      }
    }
  });
});

describe('place, size and surface', () => {
  it.each([
    ['2CylinderEngine', SWIFT, 0.02],
    ['2CylinderEngine', PRECISION, 0.005],
    ['m2m-sample-rig', SWIFT, 0.005],
    ['Fox', SWIFT, 0.001],
  ] as const)(
    '%s to %i faces: the input bounding box, every vertex on the input surface, sampled Hausdorff under %d of its size',
    async (name, faces, limit) => {
      const input = inputs[name]!;
      const { mesh } = await retopologize(input, { faces, quads: true });
      expect(boxGap(mesh, input)).toBeLessThan(0.01);
      expect(await vertexOffSurface(mesh, input)).toBeLessThan(1e-6);
      expect(await hausdorff(mesh, input)).toBeLessThan(limit);
    },
  );
});

describe('borders and UV seams', () => {
  /** A flat n × n grid (an open mesh: its rim is a border), its left and right halves two UV islands with a seam between. */
  function seamedGrid(n: number): TriangleMesh {
    const positions: number[] = [];
    const uvs: number[] = [];
    const index = new Map<string, number>();
    const vertex = (i: number, j: number, island: number) => {
      const key = `${i},${j},${island}`;
      let v = index.get(key);
      if (v === undefined) {
        v = positions.length / 3;
        index.set(key, v);
        positions.push(i / n, j / n, 0);
        uvs.push(island * 0.5 + (i / n) * 0.45, j / n);
      }
      return v;
    };
    const indices: number[] = [];
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const island = i < n / 2 ? 0 : 1;
        const [a, b, c, d] = [
          vertex(i, j, island),
          vertex(i + 1, j, island),
          vertex(i + 1, j + 1, island),
          vertex(i, j + 1, island),
        ];
        indices.push(a, b, c, a, c, d);
      }
    }
    return {
      positions: Float32Array.from(positions),
      uvs: Float32Array.from(uvs),
      materialOf: new Uint16Array(positions.length / 3),
      materials: [{ name: 'grid', color: [1, 1, 1, 1] }],
      indices: Uint32Array.from(indices),
    };
  }

  it('keeps every rim vertex of an open mesh, and the seam between two UV islands on both sides', async () => {
    const n = 40;
    const grid = seamedGrid(n);
    const { mesh, kept } = await retopologize(grid, { faces: 1_000, quads: true });
    expect(kept).toBe('borders-and-seams');
    expect(faceCount(mesh)).toBeLessThan(1_000);
    const at = (v: number) => [mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!];
    const onRim = (x: number, y: number) => x === 0 || y === 0 || x === 1 || y === 1;
    const rim = new Set<string>();
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      const [x, y] = at(v);
      if (onRim(x!, y!)) rim.add(`${x},${y}`);
    }
    expect(rim.size).toBe(4 * n); // every vertex of the rim, none moved

    // No face mixes the two islands, and every seam vertex of one island has its twin in the other.
    const island = (v: number) => (mesh.uvs![v * 2]! < 0.5 ? 0 : 1);
    const faces = [
      ...Array.from({ length: mesh.quads.length / 4 }, (_, q) => mesh.quads.subarray(q * 4, q * 4 + 4)),
      ...Array.from({ length: mesh.triangles.length / 3 }, (_, t) => mesh.triangles.subarray(t * 3, t * 3 + 3)),
    ];
    for (const face of faces) expect(new Set(Array.from(face, island)).size).toBe(1);
    const seam = [new Set<number>(), new Set<number>()];
    for (let v = 0; v < mesh.positions.length / 3; v++)
      if (Math.abs(at(v)[0]! - 0.5) < 1e-6) seam[island(v)]!.add(at(v)[1]!);
    expect(seam[0]!.size).toBeGreaterThan(1);
    expect([...seam[0]!].sort()).toEqual([...seam[1]!].sort());
  });
});
