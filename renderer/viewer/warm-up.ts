// The glTF loader made ready while the user picks a file: its modules are evaluated on first use (they sit
// behind import() in the viewer bundle), and the first PBR material decodes the environment BRDF lookup
// texture (a shader compiled and run). Loading a one-triangle GLB into a container that never joins the
// scene does both, so the user's first model pays for neither. Nothing is drawn and nothing is fetched.
import type { Scene } from '@babylonjs/core/scene.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';

/** A GLB with one triangle and no material (the loader gives it its default PBR material). */
export function triangleGlb(): Uint8Array {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const json = JSON.stringify({
    asset: { version: '2.0', generator: 'Asset Studio warm-up' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
    bufferViews: [{ buffer: 0, byteLength: positions.byteLength, target: 34962 }], // ARRAY_BUFFER
    buffers: [{ byteLength: positions.byteLength }],
  });
  const text = new TextEncoder().encode(json);
  const jsonLength = Math.ceil(text.length / 4) * 4; // chunks are 4-byte aligned (JSON padded with spaces)
  const total = 12 + 8 + jsonLength + 8 + positions.byteLength;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  bytes.fill(0x20, 20, 20 + jsonLength);
  bytes.set(text, 20);
  const bin = 20 + jsonLength;
  view.setUint32(bin, positions.byteLength, true);
  view.setUint32(bin + 4, 0x004e4942, true); // 'BIN\0'
  bytes.set(new Uint8Array(positions.buffer), bin + 8);
  return bytes;
}

/**
 * Loads the triangle into a container and disposes it; resolves when done, the BRDF texture (the scene's,
 * kept) decoded or after 5 s. A failure is only logged: the first file then does the same work itself.
 */
export async function warmUpGltf(scene: Scene): Promise<void> {
  try {
    const container = await LoadAssetContainerAsync(triangleGlb(), scene, { pluginExtension: '.glb' });
    container.dispose();
    const brdf = scene.environmentBRDFTexture;
    for (let waited = 0; brdf && !brdf.isReady() && !scene.isDisposed && waited < 5000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
  } catch (error) {
    if (scene.isDisposed) return; // the viewer closed meanwhile
    console.warn('The glTF loader could not be prepared ahead of the first file:', error);
  }
}
