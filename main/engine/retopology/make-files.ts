// One retopology from input mesh to output files: the retopologised mesh as OBJ + MTL (+ the textures it
// names), the same mesh as a GLB, and its rendered preview. What the engine's retopology sessions run, and what bench/retopology times.
import { faceCount, type TriangleMesh } from '../../mesh/mesh.ts';
import { renderPreview, type TexturePixels } from '../../mesh/render.ts';
import { retopologize, type RetopologyOptions } from './retopologize.ts';
import type { Kept } from './simplify.ts';
import { writeGlb } from './write-glb.ts';
import { writeObj } from './write-obj.ts';

export interface RetopologyFiles {
  /** Files of the OBJ folder: `<name>.obj`, `<name>.mtl` and the textures the MTL names. */
  folder: { file: string; bytes: Uint8Array }[];
  /** The preview (PNG). */
  image: Buffer;
  /** The same mesh as a GLB (quads split in two triangles). */
  glb: Uint8Array;
  stats: { faces: number; quads: number; triangles: number; inputTriangles: number; error: number; kept: Kept };
}

export interface MakeOptions extends RetopologyOptions {
  /** Base name of the OBJ folder's files. */
  name: string;
  /** Width and height of the preview, pixels. */
  imageSize: number;
  /** Decodes a material's texture for the preview; undefined when it cannot (the preview then shows its colour). */
  decodeTexture?: (bytes: Uint8Array) => TexturePixels | undefined;
}

export async function makeRetopologyFiles(input: TriangleMesh, options: MakeOptions): Promise<RetopologyFiles> {
  const { mesh, inputTriangles, error, kept } = await retopologize(input, options);
  const { obj, mtl, textures } = writeObj(mesh, options.name);
  const decoded = mesh.materials.map((m) =>
    m.texture === undefined ? undefined : options.decodeTexture?.(m.texture.bytes),
  );
  return {
    folder: [
      { file: `${options.name}.obj`, bytes: Buffer.from(obj) },
      { file: `${options.name}.mtl`, bytes: Buffer.from(mtl) },
      ...textures.map((t) => ({ file: t.file, bytes: t.bytes })),
    ],
    image: renderPreview(mesh, options.imageSize, decoded),
    glb: await writeGlb(mesh, options.name),
    stats: {
      faces: faceCount(mesh),
      quads: mesh.quads.length / 4,
      triangles: mesh.triangles.length / 3,
      inputTriangles,
      error,
      kept,
    },
  };
}
