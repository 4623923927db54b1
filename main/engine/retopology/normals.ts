// Normals of the result, per face corner: smooth across faces that meet at less than the crease angle
// (whatever their uv or material: a seam is not a crease), hard where the surface folds more sharply, as a
// mechanical part's edges. Vertices are grouped by position, so copies at UV seams share their normal.
import type { FaceMesh } from '../../mesh/mesh.ts';

export const CREASE_DEGREES = 40;

export interface CornerNormals {
  /** Unit normals, xyz each, without repeats (rounded to 4 decimals). */
  normals: Float64Array;
  /** Per face corner, quads first then triangles, in the order of `mesh.quads` and `mesh.triangles`. */
  ofCorner: Uint32Array;
}

export function cornerNormals(mesh: FaceMesh): CornerNormals {
  const quadCount = mesh.quads.length / 4;
  const faceCount = quadCount + mesh.triangles.length / 3;
  const cornerCount = mesh.quads.length + mesh.triangles.length;
  // Every corner's vertex, and the face and its first corner, quads first.
  const corners = new Uint32Array(cornerCount);
  corners.set(mesh.quads);
  corners.set(mesh.triangles, mesh.quads.length);
  const firstCorner = (f: number) => (f < quadCount ? f * 4 : mesh.quads.length + (f - quadCount) * 3);
  const sides = (f: number) => (f < quadCount ? 4 : 3);

  // Area-weighted face normals (for a quad, the cross product of its diagonals), and their unit vectors.
  const p = mesh.positions;
  const weighted = new Float64Array(faceCount * 3);
  const unit = new Float64Array(faceCount * 3);
  for (let f = 0; f < faceCount; f++) {
    const c = firstCorner(f);
    const a = corners[c]! * 3;
    const b = corners[c + 1]! * 3;
    const d = corners[c + 2]! * 3;
    const e = (sides(f) === 4 ? corners[c + 3]! : corners[c]!) * 3; // a triangle as the quad a b c a
    const ux = p[d]! - p[a]!;
    const uy = p[d + 1]! - p[a + 1]!;
    const uz = p[d + 2]! - p[a + 2]!;
    const vx = p[e]! - p[b]!;
    const vy = p[e + 1]! - p[b + 1]!;
    const vz = p[e + 2]! - p[b + 2]!;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const l = Math.hypot(nx, ny, nz) || 1;
    weighted[f * 3] = nx;
    weighted[f * 3 + 1] = ny;
    weighted[f * 3 + 2] = nz;
    unit[f * 3] = nx / l;
    unit[f * 3 + 1] = ny / l;
    unit[f * 3 + 2] = nz / l;
  }

  // Faces around each position (CSR), positions told apart by their exact coordinates.
  const pointOf = pointIds(p);
  const pointCount = pointOf.reduce((max, id) => Math.max(max, id + 1), 0);
  const start = new Uint32Array(pointCount + 1);
  for (let c = 0; c < cornerCount; c++) start[pointOf[corners[c]!]! + 1]!++;
  for (let i = 0; i < pointCount; i++) start[i + 1]! += start[i]!;
  const around = new Uint32Array(cornerCount);
  const fill = start.slice(0, pointCount);
  for (let f = 0; f < faceCount; f++) {
    for (let c = firstCorner(f), end = c + sides(f); c < end; c++) around[fill[pointOf[corners[c]!]!]!++] = f;
  }

  const cosCrease = Math.cos((CREASE_DEGREES * Math.PI) / 180);
  const normals: number[] = [];
  const seen = new Map<number, number>();
  const ofCorner = new Uint32Array(cornerCount);
  for (let f = 0; f < faceCount; f++) {
    const ox = unit[f * 3]!;
    const oy = unit[f * 3 + 1]!;
    const oz = unit[f * 3 + 2]!;
    for (let c = firstCorner(f), end = c + sides(f); c < end; c++) {
      const point = pointOf[corners[c]!]!;
      let x = 0;
      let y = 0;
      let z = 0;
      for (let i = start[point]!; i < start[point + 1]!; i++) {
        const g = around[i]!;
        if (g !== f && ox * unit[g * 3]! + oy * unit[g * 3 + 1]! + oz * unit[g * 3 + 2]! < cosCrease) continue;
        x += weighted[g * 3]!;
        y += weighted[g * 3 + 1]!;
        z += weighted[g * 3 + 2]!;
      }
      const l = Math.hypot(x, y, z);
      const qx = Math.round((l > 0 ? x / l : ox) * 1e4);
      const qy = Math.round((l > 0 ? y / l : oy) * 1e4);
      const qz = Math.round((l > 0 ? z / l : oz) * 1e4);
      const key = ((qx + 10_000) * 20_001 + (qy + 10_000)) * 20_001 + (qz + 10_000);
      let index = seen.get(key);
      if (index === undefined) {
        index = normals.length / 3;
        seen.set(key, index);
        normals.push(qx / 1e4, qy / 1e4, qz / 1e4);
      }
      ofCorner[c] = index;
    }
  }
  return { normals: Float64Array.from(normals), ofCorner };
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
