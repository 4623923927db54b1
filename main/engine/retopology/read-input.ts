// The input of a retopology as one triangle mesh: a GLB or glTF (glTF Transform, Draco and meshopt decoded) or
// an OBJ. A mesh this engine made itself is read as the GLB its recipe makes (work/tasks.ts), its FBX and USDZ too.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
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
