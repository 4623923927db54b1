// Binary FBX of the engine's meshes (main/formats/fbx.ts writes the file): the seeded mesh, or a polygon
// mesh with its material, whose base-colour texture is embedded.
import { writeFbx } from '../../formats/fbx.ts';
import { buildMesh, GENERATOR, type MeshOptions } from './mesh.ts';
import { renderTexture } from './pictures.ts';
import type { MeshMaterial, PolygonMesh } from './polygon-mesh.ts';

/** The seeded mesh as a binary FBX; polygons are quads when `mesh.quads`, triangles otherwise; with `texture`, the seeded texture embedded. */
export function buildFbxBinary(seed: string, mesh: Omit<MeshOptions, 'seed'> = {}, texture = false): Buffer {
  const m = buildMesh({ ...mesh, seed });
  const faces = mesh.quads ? m.quads : m.triangles;
  const size = mesh.quads ? 4 : 3;
  // The last index of each polygon is stored as -(index + 1).
  const polygonVertexIndex = Int32Array.from(faces, (v, k) => (k % size === size - 1 ? ~v : v));
  // The same material as the GLB of the same mesh (glb.ts): the seeded colour, or the seeded texture embedded.
  const material = {
    color: m.color,
    ...(texture && { texture: { png: renderTexture(seed), fileName: 'texture.png' } }),
  };
  return writeFbx({ positions: m.positions, normals: m.normals, uvs: m.uvs, polygonVertexIndex, material }, GENERATOR);
}

/** A polygon mesh (triangles and quads as they are) with its material; the base-colour texture is embedded as `textureName`. */
export function buildPolygonFbx(mesh: PolygonMesh, material: MeshMaterial, textureName = 'texture.png'): Buffer {
  const polygonVertexIndex = new Int32Array(mesh.polygons.length);
  let offset = 0;
  for (const size of mesh.sizes) {
    for (let k = 0; k < size; k++) {
      const v = mesh.polygons[offset + k]!;
      polygonVertexIndex[offset + k] = k === size - 1 ? ~v : v;
    }
    offset += size;
  }
  return writeFbx(
    {
      positions: mesh.positions,
      normals: mesh.normals,
      uvs: mesh.uvs,
      polygonVertexIndex,
      material: {
        color: material.color,
        ...(material.baseColor && { texture: { png: material.baseColor, fileName: textureName } }),
      },
    },
    GENERATOR,
  );
}
