// KTX2 textures (glTF KHR_texture_basisu) decoded by the app's own worker (ktx2-worker.ts) instead of
// Babylon's KTX2 decoder, which Babylon would fetch from its CDN and which is not on npm. Babylon's
// KhronosTextureContainer2 takes a worker pool that speaks its protocol; this is that pool: one worker,
// made on the first KTX2 texture, released when idle.
import type { InternalTexture } from '@babylonjs/core/Materials/Textures/internalTexture.js';
import { KhronosTextureContainer2 } from '@babylonjs/core/Misc/khronosTextureContainer2.js';
import { initializeWebWorker } from '@babylonjs/core/Misc/khronosTextureContainer2Worker.js';
import { AutoReleaseWorkerPool } from '@babylonjs/core/Misc/workerPool.js';

type Decoded = { mipmaps: { width: number; height: number }[] };
type CreateTexture = (
  this: KhronosTextureContainer2,
  data: Decoded,
  texture: InternalTexture,
  options?: unknown,
) => void;
type DecodeAsync = (this: KhronosTextureContainer2, ...args: unknown[]) => Promise<Decoded>;

let installed = false;
/** Why KTX2 textures failed since the last `takeKtx2Failures()`: Babylon reports only "failed to load data". */
let failures: string[] = [];

/** The reasons KTX2 textures failed to decode since the last call (for the model's error message). */
export function takeKtx2Failures(): string[] {
  const taken = failures;
  failures = [];
  return taken;
}

export function useLocalKtx2Decoder(baseUrl: string): void {
  const script = new URL('ktx2-worker.js', baseUrl).href;
  KhronosTextureContainer2.WorkerPool = new AutoReleaseWorkerPool(1, () =>
    initializeWebWorker(new Worker(script), undefined, undefined),
  );
  if (installed) return;
  installed = true;
  const prototype = KhronosTextureContainer2.prototype as unknown as {
    _createTexture: CreateTexture;
    _decodeAsync: DecodeAsync;
  };
  // The decoder's reason for a failure is kept: Babylon's texture loader logs it and reports only that it failed.
  const decode = prototype._decodeAsync;
  prototype._decodeAsync = async function (...args) {
    try {
      return await decode.apply(this, args);
    } catch (error) {
      const message = (error as { message?: unknown } | null)?.message;
      failures.push(typeof message === 'string' && message ? message : String(error));
      throw error;
    }
  };
  // Babylon uploads uncompressed (RGBA8) levels one by one, setting the texture's size to each level's, so
  // the texture is left saying 1 × 1 (its last level): the size is set back to the first level's.
  const create = prototype._createTexture;
  prototype._createTexture = function (data, texture, options) {
    create.call(this, data, texture, options);
    const first = data.mipmaps[0];
    if (first) {
      texture.width = texture.baseWidth = first.width;
      texture.height = texture.baseHeight = first.height;
    }
  };
}
