// KTX2 textures and a GLB that uses one (KHR_texture_basisu), made with the Basis Universal encoder of the
// ktx2-encoder package (a dev dependency), for the KTX2 decoder's tests. Also loads the transcoder the app
// ships (@babylonjs/core/assets/Basis) in Node, as the app's worker loads it in the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { KHRTextureBasisu } from '@gltf-transform/extensions';
import { encodeToKTX2 } from 'ktx2-encoder';
import type { BasisModule } from '../../renderer/viewer/ktx2/transcode.ts';

const require = createRequire(import.meta.url);

/** RGBA8 pixels, `width` x `height`, coloured by `color(x, y)`. */
export function pixels(
  width: number,
  height: number,
  color: (x: number, y: number) => [number, number, number],
): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([...color(x, y), 255], (y * width + x) * 4);
  }
  return data;
}

/** A KTX2 file: ETC1S (BasisLZ) or UASTC with Zstandard supercompression, with mipmaps, sRGB. */
export async function encodeKtx2(
  width: number,
  height: number,
  data: Uint8Array,
  codec: 'etc1s' | 'uastc',
): Promise<Uint8Array> {
  return encodeToKTX2(new Uint8Array(0), {
    isUASTC: codec === 'uastc',
    needSupercompression: codec === 'uastc',
    generateMipmap: true,
    enableDebug: false,
    imageDecoder: async () => ({ width, height, data }),
  });
}

/** Left half red, right half blue. */
export const halves =
  (width: number) =>
  (x: number): [number, number, number] =>
    x < width / 2 ? [230, 30, 30] : [30, 60, 230];

/** A GLB of one upright 2 x 1 m quad (double-sided) whose base colour is the given KTX2 texture. */
export async function basisuGlb(ktx2: Uint8Array): Promise<Uint8Array> {
  const doc = new Document();
  doc.createExtension(KHRTextureBasisu).setRequired(true);
  const buffer = doc.createBuffer();
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setBuffer(buffer)
    .setArray(new Float32Array([-1, 0, 0, 1, 0, 0, 1, 1, 0, -1, 1, 0]));
  const uv = doc
    .createAccessor()
    .setType('VEC2')
    .setBuffer(buffer)
    .setArray(new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]));
  const indices = doc
    .createAccessor()
    .setType('SCALAR')
    .setBuffer(buffer)
    .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]));
  const texture = doc.createTexture('halves').setImage(ktx2).setMimeType('image/ktx2');
  const material = doc
    .createMaterial('ktx2')
    .setBaseColorTexture(texture)
    .setDoubleSided(true)
    .setMetallicFactor(0)
    .setRoughnessFactor(1);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', position)
    .setAttribute('TEXCOORD_0', uv)
    .setIndices(indices)
    .setMaterial(material);
  doc.createScene().addChild(doc.createNode('quad').setMesh(doc.createMesh('quad').addPrimitive(primitive)));
  return new NodeIO().registerExtensions([KHRTextureBasisu]).writeBinary(doc);
}

/** The Basis Universal transcoder the app ships, loaded in Node (its UMD script, its WASM read from disk). */
export async function babylonBasisTranscoder(): Promise<BasisModule> {
  const dir = join(dirname(require.resolve('@babylonjs/core/package.json')), 'assets', 'Basis');
  const script = join(dir, 'basis_transcoder.js');
  // The script is a classic (UMD) script in an ES-module package: run it as CommonJS to get its factory.
  const module = { exports: {} as unknown };
  new Function('module', 'exports', 'require', '__filename', '__dirname', readFileSync(script, 'utf8'))(
    module,
    module.exports,
    require,
    script,
    dir,
  );
  const factory = module.exports as (options: { wasmBinary: Uint8Array }) => Promise<BasisModule>;
  const basis = await factory({ wasmBinary: readFileSync(join(dir, 'basis_transcoder.wasm')) });
  basis.initializeBasis();
  return basis;
}
