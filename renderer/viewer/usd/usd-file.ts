// A USDZ package or a USDA layer, from its bytes to triangle meshes: the archive's root layer
// (usdz-archive.ts), checked to be USD text (a binary USDC layer fails with a message a user can act on),
// parsed (usda-parse.ts) and turned into meshes (usd-meshes.ts). No DOM or Babylon imports.
import { isZip } from '../zip-archive.ts';
import { rootLayer } from './usdz-archive.ts';
import { layerText, parseUsda, UsdError, type UsdLayer, type UsdPrim } from './usda-parse.ts';
import { meshesOf, type UsdScene } from './usd-meshes.ts';

export async function readUsdScene(bytes: Uint8Array): Promise<UsdScene> {
  const inPackage = isZip(bytes);
  const data = inPackage ? (await rootLayer(bytes)).data : bytes;
  const layer = parseUsda(layerText(data, inPackage));
  const scene = meshesOf(layer);
  if (scene.meshes.length === 0) throw new UsdError(emptyReason(layer, inPackage));
  return scene;
}

function emptyReason(layer: UsdLayer, inPackage: boolean): string {
  const what = inPackage ? 'This USDZ' : 'This USD file';
  let composed = Array.isArray(layer.metadata.subLayers) && layer.metadata.subLayers.length > 0;
  const types = new Set<string>();
  const walk = (p: UsdPrim) => {
    if ('references' in p.metadata || 'payload' in p.metadata || 'inherits' in p.metadata) composed = true;
    if (p.type) types.add(p.type);
    p.children.forEach(walk);
  };
  layer.prims.forEach(walk);
  if (composed)
    return `${what} builds its model from other layers (references, payloads or sublayers), which the built-in reader does not follow. Open the GLB of the same job instead, or install the OpenUSD importer runtime (see README).`;
  const others = [...types].filter((t) => t !== 'Xform' && t !== 'Scope' && t !== 'Mesh');
  return `${what} holds no polygon mesh the built-in reader can show${others.length ? ` (it holds ${others.slice(0, 4).join(', ')} prims)` : ''}. Open the GLB of the same job instead, or install the OpenUSD importer runtime (see README).`;
}
