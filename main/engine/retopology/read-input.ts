// The input of a retopology as one triangle mesh: a GLB or glTF (glTF Transform, Draco and meshopt decoded),
// an OBJ, or a mesh this engine made itself (its FBX and USDZ are read through the recipe they were made from).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Mesh } from '../outputs/index.ts';
import type { TriangleMesh } from '../../mesh/mesh.ts';
import { readGltf } from '../../mesh/read-gltf.ts';
import { readObj } from '../../mesh/read-obj.ts';
import { UnreadableMesh } from '../../mesh/unreadable.ts';

/** Reads the stored input file at `path` (its extension says what it is, as the input check stored it). */
export async function readInputMesh(path: string): Promise<TriangleMesh> {
  const extension = extname(path).slice(1).toLowerCase();
  switch (extension) {
    case 'glb':
    case 'gltf':
      return readGltf(await readFile(path), extension);
    case 'obj':
      return readObj(await readFile(path, 'utf8'));
    default:
      throw new UnreadableMesh(
        `is ${extension === 'fbx' ? 'an FBX' : extension === 'usdz' ? 'a USDZ' : `a .${extension}`} file, which retopology does not read (it reads GLB, glTF and OBJ): convert it to GLB first`,
      );
  }
}

/** A mesh of this engine's own (outputs/mesh.ts) as a retopology input, with its colour and texture. */
export function engineMesh(mesh: Mesh, texture: Uint8Array | undefined): TriangleMesh {
  const [r, g, b] = mesh.color;
  return {
    positions: mesh.positions,
    uvs: mesh.uvs,
    materialOf: new Uint16Array(mesh.positions.length / 3),
    materials: [
      {
        name: 'material',
        color: [r, g, b, 1],
        ...(texture !== undefined && { texture: { bytes: texture, mimeType: 'image/png', extension: 'png' } }),
      },
    ],
    indices: mesh.triangles,
  };
}
