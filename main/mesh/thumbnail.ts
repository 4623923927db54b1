// A model file drawn as a PNG thumbnail (GLB or OBJ, in its materials' colours and decoded textures), from the
// front three-quarter view the viewer opens on (shared/views.ts: its front, +Z, turned towards its left and a
// little above). CPU work of a few hundred ms to seconds: the app runs it on a worker thread (thumbnail-thread.ts).
import { readFile } from 'node:fs/promises';
import type { FaceMesh, TriangleMesh } from './mesh.ts';
import { readGltf } from './read-gltf.ts';
import { readObj } from './read-obj.ts';
import { decodeTexture, renderPreview } from './render.ts';

export type ThumbnailFormat = 'glb' | 'obj';

/** The PNG of the model file at `path`, `size` pixels square. Throws an UnreadableMesh when it cannot be read. */
export async function drawModelFile(path: string, format: ThumbnailFormat, size: number): Promise<Buffer> {
  const mesh = format === 'glb' ? await readGltf(await readFile(path), 'glb') : readObj(await readFile(path, 'utf8'));
  const textures = mesh.materials.map((m) => (m.texture === undefined ? undefined : decodeTexture(m.texture.bytes)));
  return renderPreview(asFaces(mesh), size, textures, { edges: false });
}

const asFaces = (mesh: TriangleMesh): FaceMesh => ({
  positions: mesh.positions,
  uvs: mesh.uvs,
  materialOf: mesh.materialOf,
  materials: mesh.materials,
  quads: new Uint32Array(0),
  triangles: mesh.indices,
});
