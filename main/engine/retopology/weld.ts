// Welding: vertices equal in position, uv and material become one, so that the simplifier sees the surface's
// connectivity (an unindexed or split mesh would be a soup of separate triangles to it). Normals are not
// kept: the result's are computed from its own faces (see normals.ts).
import type { TriangleMesh } from './mesh.ts';

/** The mesh with each distinct (position, uv, material) once, and triangles that repeat a corner dropped. */
export function weld(mesh: TriangleMesh): TriangleMesh {
  const count = mesh.positions.length / 3;
  const bits = new Uint32Array(mesh.positions.buffer, mesh.positions.byteOffset, count * 3);
  const uvBits = mesh.uvs === undefined ? new Uint32Array(count * 2) : new Uint32Array(mesh.uvs.buffer, mesh.uvs.byteOffset, count * 2);
  const material = mesh.materialOf;
  // Open addressing over a power-of-two table at most half full; -0 and 0 are told apart, which only splits.
  let size = 1;
  while (size < count * 2) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const remap = new Uint32Array(count);
  const first = new Uint32Array(count);
  let unique = 0;
  for (let v = 0; v < count; v++) {
    const x = bits[v * 3]!;
    const y = bits[v * 3 + 1]!;
    const z = bits[v * 3 + 2]!;
    const s = uvBits[v * 2]!;
    const t = uvBits[v * 2 + 1]!;
    const m = material[v]!;
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d) ^ Math.imul(s, 0x27d4eb2f) ^ Math.imul(t, 0x165667b1) ^ Math.imul(m, 0x1b873593);
    h ^= h >>> 15;
    let slot = h & mask;
    for (;;) {
      const at = table[slot]!;
      if (at < 0) {
        table[slot] = unique;
        remap[v] = unique;
        first[unique++] = v;
        break;
      }
      const u = first[at]!;
      if (bits[u * 3] === x && bits[u * 3 + 1] === y && bits[u * 3 + 2] === z && uvBits[u * 2] === s && uvBits[u * 2 + 1] === t && material[u] === m) {
        remap[v] = at;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }

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
  const indices = new Uint32Array(mesh.indices.length);
  let n = 0;
  for (let i = 0; i < mesh.indices.length; i += 3) {
    const a = remap[mesh.indices[i]!]!;
    const b = remap[mesh.indices[i + 1]!]!;
    const c = remap[mesh.indices[i + 2]!]!;
    if (a === b || b === c || a === c) continue;
    indices[n++] = a;
    indices[n++] = b;
    indices[n++] = c;
  }
  return { positions, uvs, materialOf, materials: mesh.materials, indices: n === indices.length ? indices : indices.slice(0, n) };
}
