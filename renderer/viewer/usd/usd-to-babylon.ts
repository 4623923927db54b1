// Meshes read by the built-in USD reader (usd-meshes.ts) as a Babylon AssetContainer: one Mesh per USD
// Mesh prim (world-space vertices), under a `__root__` node placed as Babylon's glTF loader places its own
// (USD and glTF are both right-handed, Y up, counter-clockwise; the scene is left-handed), so a job's USDZ
// shows exactly like its GLB. Materials are PBR (the viewer's channel views then apply), one per distinct
// look: displayColor or the bound UsdPreviewSurface's constants as albedo, metallic and roughness.
import { AssetContainer } from '@babylonjs/core/assetContainer.js';
import { Material } from '@babylonjs/core/Materials/material.js';
import { PBRMaterial } from '@babylonjs/core/Materials/PBR/pbrMaterial.js';
import { Color3 } from '@babylonjs/core/Maths/math.color.js';
import { Quaternion } from '@babylonjs/core/Maths/math.vector.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js';
import type { Scene } from '@babylonjs/core/scene.js';
import type { UsdLook, UsdScene } from './usd-meshes.ts';

export function toAssetContainer(scene: Scene, usd: UsdScene): AssetContainer {
  const container = new AssetContainer(scene);
  const blocked = scene._blockEntityCollection;
  // Created into the container only (the viewer adds it to the scene).
  scene._blockEntityCollection = true;
  try {
    const root = new Mesh('__root__', scene);
    root._parentContainer = container;
    if (!scene.useRightHandedSystem) {
      root.rotationQuaternion = new Quaternion(0, 1, 0, 0);
      root.scaling.set(1, 1, -1);
    }
    container.meshes.push(root);
    const materials = new Map<string, PBRMaterial>();
    const materialOf = (look: UsdLook, doubleSided: boolean) => {
      const key = JSON.stringify([look, doubleSided]);
      let m = materials.get(key);
      if (m) return m;
      m = new PBRMaterial(`usd-material-${materials.size}`, scene);
      m._parentContainer = container;
      m.albedoColor = new Color3(...look.color);
      m.metallic = look.metallic;
      m.roughness = look.roughness;
      m.emissiveColor = new Color3(...look.emissive);
      m.backFaceCulling = !doubleSided;
      if (look.opacity < 1) {
        m.alpha = look.opacity;
        m.transparencyMode = Material.MATERIAL_ALPHABLEND;
      }
      materials.set(key, m);
      container.materials.push(m);
      return m;
    };
    for (const u of usd.meshes) {
      const mesh = new Mesh(u.name || 'mesh', scene);
      mesh._parentContainer = container;
      mesh.parent = root;
      mesh.sideOrientation = scene.useRightHandedSystem
        ? Material.CounterClockWiseSideOrientation
        : Material.ClockWiseSideOrientation;
      const data = new VertexData();
      data.positions = u.positions;
      data.indices = u.indices;
      data.normals = u.normals;
      if (u.uvs) data.uvs = u.uvs;
      if (u.colors) data.colors = u.colors;
      data.applyToMesh(mesh);
      mesh.material = materialOf(u.look, u.doubleSided);
      mesh.metadata = { usdPath: u.path };
      container.meshes.push(mesh);
      if (mesh.geometry) container.geometries.push(mesh.geometry);
    }
  } finally {
    scene._blockEntityCollection = blocked;
  }
  return container;
}
