// What the viewer tells of a model: its counts, box and whether it has PBR materials, and its textures with
// their resolution and GPU memory.
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import { PBRBaseMaterial } from '@babylonjs/core/Materials/PBR/pbrBaseMaterial.js';
import { BaseTexture } from '@babylonjs/core/Materials/Textures/baseTexture.js';
import type { ModelStats, TextureInfo } from '../types.ts';
import type { Bounds } from './context.ts';

/** Counts over the meshes with vertices (a mesh without indices counts its vertices in threes). */
export function statsOf(c: AssetContainer, bounds: Bounds): Omit<ModelStats, 'warnings'> {
  let triangles = 0;
  let vertices = 0;
  let meshes = 0;
  for (const mesh of c.meshes) {
    const v = mesh.getTotalVertices();
    if (v === 0) continue;
    meshes++;
    vertices += v;
    const i = mesh.getTotalIndices();
    triangles += Math.floor((i > 0 ? i : v) / 3);
  }
  const size = bounds.max.subtract(bounds.min);
  return {
    triangles,
    vertices,
    meshes,
    materials: c.materials.length,
    textures: c.textures.length,
    animations: c.animationGroups.length,
    pbr: c.materials.some((m) => m instanceof PBRBaseMaterial),
    size: [size.x, size.y, size.z],
    min: [bounds.min.x, bounds.min.y, bounds.min.z],
    max: [bounds.max.x, bounds.max.y, bounds.max.z],
  };
}

/** The model's textures once they have all loaded (their sizes are known then); GPU memory as RGBA8. */
export function texturesOf(c: AssetContainer | undefined): Promise<TextureInfo[]> {
  const list = c?.textures ?? [];
  return new Promise<TextureInfo[]>((resolve) =>
    BaseTexture.WhenAllReady(list, () =>
      resolve(
        list.map((t, i) => {
          const { width, height } = t.getSize();
          const mips = t.noMipmap ? 1 : 4 / 3;
          return {
            name: t.name || `texture ${i + 1}`,
            width,
            height,
            gpuBytes: Math.round(width * height * 4 * mips * (t.isCube ? 6 : 1)),
          };
        }),
      ),
    ),
  );
}
