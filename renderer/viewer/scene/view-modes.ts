// How the model is drawn: textured (the file's own look), wireframe, or a diagnostic view. Normals and the
// UV checker swap each mesh's material for a shared one (originals kept and put back); the PBR channels set
// debugMode on the model's PBR materials (0 again for Textured). The texel-density checker is a two-tone checker
// tiled so that each square holds the same number of texels of the model's texture (setTexelTiling): squares of
// equal size on the surface mean equal texel density.
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import type { Material } from '@babylonjs/core/Materials/material.js';
import { PBRBaseMaterial } from '@babylonjs/core/Materials/PBR/pbrBaseMaterial.js';
import { PBRMaterial } from '@babylonjs/core/Materials/PBR/pbrMaterial.js';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js';
import { DynamicTexture } from '@babylonjs/core/Materials/Textures/dynamicTexture.js';
import { Color3 } from '@babylonjs/core/Maths/math.color.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { ViewMode } from '../types.ts';
import type { ViewerContext } from './context.ts';

/** PBR debug modes of the channel views (Babylon's PBR debugMode numbers). */
const DEBUG: Partial<Record<ViewMode, number>> = { albedo: 60, metallic: 62, roughness: 63, normalmap: 5 };

export interface ViewModes {
  set(mode: ViewMode): void;
  /** The texel checker's squares across the UV square. */
  setTexelTiling(squares: number): void;
  /** A model was just added: it gets the mode in use (nothing to do for Textured). */
  applyToModel(): void;
  /** Puts back the model's own look (before it leaves the scene). */
  restore(): void;
}

export function createViewModes({ scene, state, wake }: ViewerContext): ViewModes {
  let mode: ViewMode = 'textured';
  const swapped = new Map<AbstractMesh, Material | null>();
  let normalsMaterial: PBRMaterial | undefined;
  let checkerMaterial: StandardMaterial | undefined;
  let texelMaterial: StandardMaterial | undefined;
  let texelSquares = 16;

  function normals(): PBRMaterial {
    if (normalsMaterial) return normalsMaterial;
    normalsMaterial = new PBRMaterial('view-normals', scene);
    normalsMaterial.debugMode = 2; // world normals, mapped to 0…1
    normalsMaterial.backFaceCulling = false;
    return normalsMaterial;
  }

  function checker(): StandardMaterial {
    checkerMaterial ??= uvChecker(scene);
    return checkerMaterial;
  }

  function texel(): StandardMaterial {
    texelMaterial ??= texelChecker(scene);
    const texture = texelMaterial.diffuseTexture as DynamicTexture;
    // The texture holds 2 × 2 squares.
    texture.uScale = texelSquares / 2;
    texture.vScale = texelSquares / 2;
    return texelMaterial;
  }

  function pbrMaterials(): PBRBaseMaterial[] {
    return (state.model?.materials ?? []).filter((m): m is PBRBaseMaterial => m instanceof PBRBaseMaterial);
  }

  /** Puts back the file's own look: its materials, no debug channel, no forced wireframe. */
  function restore() {
    for (const [mesh, material] of swapped) mesh.material = material;
    swapped.clear();
    for (const m of pbrMaterials()) if (m.debugMode !== 0) m.debugMode = 0;
    scene.forceWireframe = false;
  }

  function apply() {
    restore();
    if (mode === 'wireframe') scene.forceWireframe = true;
    else if (mode === 'normals' || mode === 'uv' || mode === 'texel') {
      for (const mesh of state.model?.meshes ?? []) {
        if (mesh.getTotalVertices() === 0) continue;
        if (mode !== 'normals' && !mesh.isVerticesDataPresent(VertexBuffer.UVKind)) continue;
        swapped.set(mesh, mesh.material);
        mesh.material = mode === 'uv' ? checker() : mode === 'texel' ? texel() : normals();
      }
    } else {
      const debug = DEBUG[mode];
      if (debug !== undefined) for (const m of pbrMaterials()) m.debugMode = debug;
    }
    wake();
  }

  return {
    set(next) {
      mode = next;
      apply();
    },
    setTexelTiling(squares) {
      texelSquares = Math.max(1, squares);
      if (mode === 'texel') apply();
    },
    applyToModel() {
      if (mode !== 'textured') apply();
    },
    restore,
  };
}

/** A checker texture material: hue across U, lightness across V, alternating cells (orientation and stretching both show). */
function uvChecker(scene: Scene): StandardMaterial {
  const size = 512;
  const cells = 8;
  const texture = new DynamicTexture('view-uv-checker', { width: size, height: size }, scene, true);
  const ctx = texture.getContext();
  const cell = size / cells;
  for (let y = 0; y < cells; y++)
    for (let x = 0; x < cells; x++) {
      const hue = Math.round((x / cells) * 300);
      ctx.fillStyle = (x + y) % 2 ? `hsl(${hue}, 70%, ${30 + y * 4}%)` : `hsl(${hue}, 15%, ${85 - y * 3}%)`;
      ctx.fillRect(x * cell, y * cell, cell, cell);
    }
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, cell / 4, cell / 4); // marks UV (0, 0)'s corner of the texture
  texture.update(true);
  const material = new StandardMaterial('view-uv', scene);
  material.diffuseTexture = texture;
  material.specularColor = new Color3(0.1, 0.1, 0.1);
  material.backFaceCulling = false;
  return material;
}

/** A two-tone checker of 2 × 2 squares, repeated (wrap) so its squares can be tiled to a texel count. */
function texelChecker(scene: Scene): StandardMaterial {
  const size = 128;
  const texture = new DynamicTexture('view-texel-checker', { width: size, height: size }, scene, true);
  const ctx = texture.getContext();
  for (let y = 0; y < 2; y++)
    for (let x = 0; x < 2; x++) {
      ctx.fillStyle = (x + y) % 2 ? '#e0642b' : '#f4f1ea';
      ctx.fillRect((x * size) / 2, (y * size) / 2, size / 2, size / 2);
    }
  texture.update(true);
  texture.wrapU = 1; // WRAP_ADDRESSMODE
  texture.wrapV = 1;
  const material = new StandardMaterial('view-texel', scene);
  material.diffuseTexture = texture;
  material.specularColor = new Color3(0.1, 0.1, 0.1);
  material.backFaceCulling = false;
  return material;
}
