// Normals of the result, per face corner: smooth across faces that meet at less than the crease angle
// (whatever their uv or material: a seam is not a crease), hard where the surface folds more sharply, as a
// mechanical part's edges. Vertices are grouped by position, so copies at UV seams share their normal.
import type { FaceMesh } from './mesh.ts';

export const CREASE_DEGREES = 40;

export interface CornerNormals {
  /** Unit normals, xyz each, without repeats. */
  normals: Float32Array;
  /** Per face corner, quads first then triangles, in the order of `mesh.quads` and `mesh.triangles`. */
  ofCorner: Uint32Array;
}

export function cornerNormals(mesh: FaceMesh): CornerNormals {
  const faces: Uint32Array[] = [];
  for (let q = 0; q < mesh.quads.length; q += 4) faces.push(mesh.quads.subarray(q, q + 4));
  for (let t = 0; t < mesh.triangles.length; t += 3) faces.push(mesh.triangles.subarray(t, t + 3));

  const faceNormals = new Float64Array(faces.length * 3); // area-weighted
  faces.forEach((face, f) => void faceNormals.set(faceNormal(mesh.positions, face), f * 3));

  // Faces around each position (CSR), positions told apart by their exact coordinates.
  const pointOf = pointIds(mesh.positions);
  const pointCount = pointOf.reduce((max, p) => Math.max(max, p + 1), 0);
  const start = new Uint32Array(pointCount + 1);
  for (const face of faces) for (const v of face) start[pointOf[v]! + 1]!++;
  for (let p = 0; p < pointCount; p++) start[p + 1]! += start[p]!;
  const around = new Uint32Array(start[pointCount]!);
  const fill = start.slice(0, pointCount);
  faces.forEach((face, f) => {
    for (const v of face) around[fill[pointOf[v]!]!++] = f;
  });

  const cosCrease = Math.cos((CREASE_DEGREES * Math.PI) / 180);
  const unit = (f: number): [number, number, number] => {
    const x = faceNormals[f * 3]!;
    const y = faceNormals[f * 3 + 1]!;
    const z = faceNormals[f * 3 + 2]!;
    const l = Math.hypot(x, y, z) || 1;
    return [x / l, y / l, z / l];
  };
  const units = faces.map((_, f) => unit(f));
  const normals: number[] = [];
  const seen = new Map<string, number>();
  const ofCorner = new Uint32Array(faces.reduce((sum, face) => sum + face.length, 0));
  let corner = 0;
  faces.forEach((face, f) => {
    const own = units[f]!;
    for (const v of face) {
      const point = pointOf[v]!;
      let x = 0;
      let y = 0;
      let z = 0;
      for (let i = start[point]!; i < start[point + 1]!; i++) {
        const g = around[i]!;
        const other = units[g]!;
        if (g !== f && own[0] * other[0] + own[1] * other[1] + own[2] * other[2] < cosCrease) continue;
        x += faceNormals[g * 3]!;
        y += faceNormals[g * 3 + 1]!;
        z += faceNormals[g * 3 + 2]!;
      }
      const l = Math.hypot(x, y, z);
      const n = l > 0 ? [x / l, y / l, z / l] : own;
      const key = n.map((c) => Math.round(c * 1e4)).join(',');
      let index = seen.get(key);
      if (index === undefined) {
        index = normals.length / 3;
        seen.set(key, index);
        normals.push(...n.map((c) => Math.round(c * 1e4) / 1e4));
      }
      ofCorner[corner++] = index;
    }
  });
  return { normals: Float32Array.from(normals), ofCorner };
}

/** Twice the area times the unit normal: for a quad, the cross product of its diagonals. */
function faceNormal(p: Float32Array, face: Uint32Array): [number, number, number] {
  const [a, b, c, d] = face.length === 4 ? [face[0]!, face[1]!, face[2]!, face[3]!] : [face[0]!, face[1]!, face[2]!, face[0]!];
  const ux = p[c * 3]! - p[a * 3]!;
  const uy = p[c * 3 + 1]! - p[a * 3 + 1]!;
  const uz = p[c * 3 + 2]! - p[a * 3 + 2]!;
  const vx = p[d * 3]! - p[b * 3]!;
  const vy = p[d * 3 + 1]! - p[b * 3 + 1]!;
  const vz = p[d * 3 + 2]! - p[b * 3 + 2]!;
  // A triangle is taken as the quad a b c a: (c − a) × (a − b) = (b − a) × (c − a).
  return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
}

/** A shared id for the vertices at the same position. */
function pointIds(positions: Float32Array): Uint32Array {
  const ids = new Uint32Array(positions.length / 3);
  const byKey = new Map<string, number>();
  for (let v = 0; v < ids.length; v++) {
    const key = `${positions[v * 3]},${positions[v * 3 + 1]},${positions[v * 3 + 2]}`;
    let id = byKey.get(key);
    if (id === undefined) {
      id = byKey.size;
      byKey.set(key, id);
    }
    ids[v] = id;
  }
  return ids;
}
