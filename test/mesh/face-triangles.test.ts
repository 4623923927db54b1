import { describe, expect, it } from 'vitest';
import { type FaceMesh, faceTriangles } from '../../main/mesh/mesh.ts';

const mesh = (quads: number[], triangles: number[]): FaceMesh => ({
  positions: new Float32Array(3 * 8),
  uvs: undefined,
  materialOf: new Uint16Array(8),
  materials: [],
  quads: Uint32Array.from(quads),
  triangles: Uint32Array.from(triangles),
});

describe('faceTriangles: a result of quads and triangles as triangles', () => {
  it('splits each quad a b c d into a b c and a c d, in order, then adds the triangles', () => {
    expect([...faceTriangles(mesh([0, 1, 2, 3, 4, 5, 6, 7], [1, 4, 6]))]).toEqual([
      0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 1, 4, 6,
    ]);
  });

  it('passes a mesh of triangles only, or of quads only, through whole', () => {
    expect([...faceTriangles(mesh([], [2, 1, 0, 5, 6, 7]))]).toEqual([2, 1, 0, 5, 6, 7]);
    expect([...faceTriangles(mesh([3, 2, 1, 0], []))]).toEqual([3, 2, 1, 3, 1, 0]);
    expect(faceTriangles(mesh([], []))).toHaveLength(0);
  });
});
