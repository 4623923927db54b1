// The meshes retopology works on: one triangle mesh merged from every mesh of the input (in world space, at
// the input's place and size), with a material per vertex, and the result (quads and triangles).

/** A material of the input, as the OBJ's MTL can carry it: a base colour and a base-colour texture. */
export interface SourceMaterial {
  name: string;
  /** Base colour factor, linear RGBA in [0, 1]. */
  color: [number, number, number, number];
  texture?: SourceTexture;
}

/** An image as the input holds it (PNG, JPEG or WebP bytes), written beside the OBJ unchanged. */
export interface SourceTexture {
  bytes: Uint8Array;
  mimeType: string;
  /** File extension for the image: png, jpg or webp. */
  extension: string;
}

/** An indexed triangle mesh: vertices are unique per (position, uv, material). */
export interface TriangleMesh {
  /** xyz per vertex, in the input's units and frame (glTF: metres, Y up). */
  positions: Float32Array;
  /** uv per vertex, glTF convention (v grows downwards); undefined when no part of the input has any. */
  uvs: Float32Array | undefined;
  /** Index into `materials` per vertex (a triangle's three vertices share one). */
  materialOf: Uint16Array;
  materials: SourceMaterial[];
  /** Counter-clockwise triangles. */
  indices: Uint32Array;
}

/** The retopologised mesh: quads and triangles over the same vertices. */
export interface FaceMesh {
  positions: Float32Array;
  uvs: Float32Array | undefined;
  materialOf: Uint16Array;
  materials: SourceMaterial[];
  /** Counter-clockwise quads, four indices each. */
  quads: Uint32Array;
  /** Counter-clockwise triangles, three indices each. */
  triangles: Uint32Array;
}

/** Faces of a result: a quad and a triangle count one each. */
export const faceCount = (mesh: FaceMesh): number => mesh.quads.length / 4 + mesh.triangles.length / 3;

/** A result's faces as triangles, three indices each: every quad a b c d as a b c and a c d, then the triangles. */
export function faceTriangles(mesh: FaceMesh): Uint32Array {
  const triangles = new Uint32Array((mesh.quads.length / 4) * 6 + mesh.triangles.length);
  let n = 0;
  for (let q = 0; q < mesh.quads.length; q += 4) {
    const [a, b, c, d] = [mesh.quads[q]!, mesh.quads[q + 1]!, mesh.quads[q + 2]!, mesh.quads[q + 3]!];
    triangles.set([a, b, c, a, c, d], n);
    n += 6;
  }
  triangles.set(mesh.triangles, n);
  return triangles;
}

export type Box = { min: [number, number, number]; max: [number, number, number] };

/** The bounding box of the vertices that `indices` use (every vertex when `indices` is undefined). */
export function boundsOf(positions: Float32Array, indices?: Uint32Array): Box {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const add = (v: number) => {
    for (let k = 0; k < 3; k++) {
      const x = positions[v * 3 + k]!;
      if (x < min[k]!) min[k] = x;
      if (x > max[k]!) max[k] = x;
    }
  };
  if (indices === undefined) for (let v = 0; v < positions.length / 3; v++) add(v);
  else for (const v of indices) add(v);
  return { min, max };
}

/** Length of the bounding box's diagonal. */
export const diagonalOf = (box: Box): number =>
  Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
