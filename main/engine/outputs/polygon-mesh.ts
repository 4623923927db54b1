// A mesh of triangles and quads (mixed), as the mesh writers take it: positions, normals and UVs per vertex,
// polygons as runs of vertex indices, and weld ids that say which vertices are one point of the surface
// (copies along a UV seam), so normals are smooth across seams and the surface can be checked closed.
import type { Vec3 } from './mesh.ts';
import { triangleCross } from '../../../shared/vectors.ts';

export interface PolygonMesh {
  /** xyz per vertex, metres, Y up, the front facing +Z. */
  positions: Float32Array;
  /** Unit normals. */
  normals: Float32Array;
  /** uv per vertex, glTF convention (v grows downwards). */
  uvs: Float32Array;
  /** Vertex indices of every polygon one after the other, counter-clockwise seen from outside. */
  polygons: Uint32Array;
  /** Corners of each polygon: 3 or 4. */
  sizes: Uint8Array;
  /** Vertices with the same weld id are the same point of the surface. */
  weld: Uint32Array;
}

/** Triangles of the polygons: a quad is split along its shorter diagonal. */
export function triangulate(mesh: Pick<PolygonMesh, 'positions' | 'polygons' | 'sizes'>): Uint32Array {
  let count = 0;
  for (const size of mesh.sizes) count += size - 2;
  const out = new Uint32Array(count * 3);
  const p = mesh.positions;
  const dist2 = (a: number, b: number) =>
    (p[a * 3]! - p[b * 3]!) ** 2 + (p[a * 3 + 1]! - p[b * 3 + 1]!) ** 2 + (p[a * 3 + 2]! - p[b * 3 + 2]!) ** 2;
  const v = mesh.polygons;
  let o = 0;
  let offset = 0;
  for (const size of mesh.sizes) {
    const a = v[offset]!;
    const b = v[offset + 1]!;
    const c = v[offset + 2]!;
    if (size === 3) {
      out[o++] = a;
      out[o++] = b;
      out[o++] = c;
    } else {
      const d = v[offset + 3]!;
      const acShorter = dist2(a, c) <= dist2(b, d);
      out[o++] = a;
      out[o++] = b;
      out[o++] = acShorter ? c : d;
      out[o++] = acShorter ? a : b;
      out[o++] = c;
      out[o++] = d;
    }
    offset += size;
  }
  return out;
}

/** Area-weighted vertex normals, summed per weld id so the copies along a seam agree. */
export function weldedNormals(positions: Float32Array, triangles: Uint32Array, weld: Uint32Array): Float32Array {
  let slots = 0;
  for (const w of weld) slots = Math.max(slots, w + 1);
  const sums = new Float64Array(slots * 3);
  const p = positions;
  for (let t = 0; t < triangles.length; t += 3) {
    const [nx, ny, nz] = triangleCross(p, triangles[t]!, triangles[t + 1]!, triangles[t + 2]!);
    for (let k = 0; k < 3; k++) {
      const s = weld[triangles[t + k]!]! * 3;
      sums[s]! += nx;
      sums[s + 1]! += ny;
      sums[s + 2]! += nz;
    }
  }
  const normals = new Float32Array(positions.length);
  for (let v = 0; v < weld.length; v++) {
    const s = weld[v]! * 3;
    const len = Math.hypot(sums[s]!, sums[s + 1]!, sums[s + 2]!);
    normals[v * 3] = len > 0 ? sums[s]! / len : 0;
    normals[v * 3 + 1] = len > 0 ? sums[s + 1]! / len : 0;
    normals[v * 3 + 2] = len > 0 ? sums[s + 2]! / len : 1;
  }
  return normals;
}

/** Polygons whose corners are all 4. */
export function quadShare(mesh: Pick<PolygonMesh, 'sizes'>): number {
  let quads = 0;
  for (const size of mesh.sizes) if (size === 4) quads++;
  return mesh.sizes.length === 0 ? 0 : quads / mesh.sizes.length;
}

/** How a polygon mesh is painted: a plain colour, or textures (PNG bytes) laid out by its UVs. */
export interface MeshMaterial {
  /** Base colour (sRGB, each in [0, 1]); the colour of an untextured mesh. */
  color: Vec3;
  /** Base colour texture. */
  baseColor?: Buffer;
  /** glTF metallic-roughness texture: green roughness, blue metalness. */
  metallicRoughness?: Buffer;
  /** Tangent-space normal map (OpenGL convention, green up). */
  normal?: Buffer;
}

/**
 * Per-vertex tangents (xyz and the bitangent's handedness in w) from the UVs, for normal maps: the direction
 * in which u grows, made perpendicular to the normal. Vertices with a degenerate UV layout get any perpendicular.
 */
export function uvTangents(
  mesh: Pick<PolygonMesh, 'positions' | 'normals' | 'uvs'>,
  triangles: Uint32Array,
): Float32Array {
  const count = mesh.positions.length / 3;
  const tan = new Float64Array(count * 3);
  const bit = new Float64Array(count * 3);
  const p = mesh.positions;
  const t = mesh.uvs;
  for (let i = 0; i < triangles.length; i += 3) {
    const a = triangles[i]!;
    const b = triangles[i + 1]!;
    const c = triangles[i + 2]!;
    const e1 = [p[b * 3]! - p[a * 3]!, p[b * 3 + 1]! - p[a * 3 + 1]!, p[b * 3 + 2]! - p[a * 3 + 2]!];
    const e2 = [p[c * 3]! - p[a * 3]!, p[c * 3 + 1]! - p[a * 3 + 1]!, p[c * 3 + 2]! - p[a * 3 + 2]!];
    const du1 = t[b * 2]! - t[a * 2]!;
    const dv1 = t[b * 2 + 1]! - t[a * 2 + 1]!;
    const du2 = t[c * 2]! - t[a * 2]!;
    const dv2 = t[c * 2 + 1]! - t[a * 2 + 1]!;
    const det = du1 * dv2 - du2 * dv1;
    if (Math.abs(det) < 1e-20) continue;
    const r = 1 / det;
    for (const v of [a, b, c]) {
      for (let k = 0; k < 3; k++) {
        tan[v * 3 + k]! += (e1[k]! * dv2 - e2[k]! * dv1) * r;
        bit[v * 3 + k]! += (e2[k]! * du1 - e1[k]! * du2) * r;
      }
    }
  }
  const out = new Float32Array(count * 4);
  for (let v = 0; v < count; v++) {
    const n = [mesh.normals[v * 3]!, mesh.normals[v * 3 + 1]!, mesh.normals[v * 3 + 2]!];
    let x = tan[v * 3]!;
    let y = tan[v * 3 + 1]!;
    let z = tan[v * 3 + 2]!;
    const d = x * n[0]! + y * n[1]! + z * n[2]!;
    x -= n[0]! * d;
    y -= n[1]! * d;
    z -= n[2]! * d;
    let len = Math.hypot(x, y, z);
    if (len < 1e-12) {
      // Any direction perpendicular to the normal.
      [x, y, z] = Math.abs(n[0]!) < 0.9 ? [0, -n[2]!, n[1]!] : [n[2]!, 0, -n[0]!];
      [x, y, z] = [n[1]! * z - n[2]! * y, n[2]! * x - n[0]! * z, n[0]! * y - n[1]! * x];
      len = Math.hypot(x, y, z) || 1;
    }
    x /= len;
    y /= len;
    z /= len;
    // Handedness: does normal × tangent point along the bitangent?
    const cx = n[1]! * z - n[2]! * y;
    const cy = n[2]! * x - n[0]! * z;
    const cz = n[0]! * y - n[1]! * x;
    const w = cx * bit[v * 3]! + cy * bit[v * 3 + 1]! + cz * bit[v * 3 + 2]! < 0 ? -1 : 1;
    out.set([x, y, z, w], v * 4);
  }
  return out;
}
