// Welding: vertices equal in position, uv and material become one, so that the simplifier sees the surface's
// connectivity (an unindexed or split mesh would be a soup of separate triangles to it). Normals are not
// kept: the result's are computed from its own faces (see normals.ts).
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import type { TriangleMesh } from '../../mesh/mesh.ts';

/** The mesh with each distinct (position, uv, material) once, and triangles that repeat a corner dropped. */
export async function weld(mesh: TriangleMesh): Promise<TriangleMesh> {
  await MeshoptSimplifier.ready;
  const count = mesh.positions.length / 3;
  const uvBits =
    mesh.uvs === undefined
      ? new Uint32Array(count * 2)
      : new Uint32Array(mesh.uvs.buffer, mesh.uvs.byteOffset, count * 2);
  const material = mesh.materialOf;
  // Vertices at one position share its first vertex (meshoptimizer's position remap); among them, those
  // with the same uv (bit for bit) and material become one. Most positions have one vertex, seams a few.
  const byPosition = MeshoptSimplifier.generatePositionRemap(mesh.positions, 3);
  const head = new Int32Array(count).fill(-1); // per position's first vertex: the last welded vertex there
  const next = new Int32Array(count); // per welded vertex: the one before it at the same position
  const remap = new Uint32Array(count);
  const first = new Uint32Array(count); // per welded vertex: the input vertex it comes from
  let unique = 0;
  for (let v = 0; v < count; v++) {
    const at = byPosition[v]!;
    const s = uvBits[v * 2]!;
    const t = uvBits[v * 2 + 1]!;
    const m = material[v]!;
    let u = head[at]!;
    while (u >= 0) {
      const w = first[u]!;
      if (uvBits[w * 2] === s && uvBits[w * 2 + 1] === t && material[w] === m) break;
      u = next[u]!;
    }
    if (u < 0) {
      u = unique++;
      first[u] = v;
      next[u] = head[at]!;
      head[at] = u;
    }
    remap[v] = u;
  }

  if (unique === count) return { ...mesh, indices: withoutDegenerate(mesh.indices) }; // nothing merged (an already welded input)

  const positions = new Float32Array(unique * 3);
  const uvs = mesh.uvs === undefined ? undefined : new Float32Array(unique * 2);
  const materialOf = new Uint16Array(unique);
  for (let u = 0; u < unique; u++) {
    const v = first[u]!;
    positions[u * 3] = mesh.positions[v * 3]!;
    positions[u * 3 + 1] = mesh.positions[v * 3 + 1]!;
    positions[u * 3 + 2] = mesh.positions[v * 3 + 2]!;
    if (uvs !== undefined) {
      uvs[u * 2] = mesh.uvs![v * 2]!;
      uvs[u * 2 + 1] = mesh.uvs![v * 2 + 1]!;
    }
    materialOf[u] = material[v]!;
  }
  return {
    positions,
    uvs,
    materialOf,
    materials: mesh.materials,
    indices: withoutDegenerate(mesh.indices.map((v) => remap[v]!)),
  };
}

/** The triangles that use three different vertices (the same array when all do). */
function withoutDegenerate(indices: Uint32Array): Uint32Array {
  const degenerate = (i: number) =>
    indices[i] === indices[i + 1] || indices[i + 1] === indices[i + 2] || indices[i] === indices[i + 2];
  let first = 0;
  while (first < indices.length && !degenerate(first)) first += 3;
  if (first >= indices.length) return indices;
  const out = new Uint32Array(indices.length);
  out.set(indices.subarray(0, first));
  let n = first;
  for (let i = first; i < indices.length; i += 3) {
    if (degenerate(i)) continue;
    out[n++] = indices[i]!;
    out[n++] = indices[i + 1]!;
    out[n++] = indices[i + 2]!;
  }
  return out.slice(0, n);
}
