// The viewer's KTX2 decoder worker (bundled by renderer/build.ts as `babylon/ktx2-worker.js`): it speaks the
// protocol of Babylon's KTX2 workers (init, setDefaultDecoderOptions, decode → decoded), so Babylon's
// KhronosTextureContainer2 uses it through a worker pool (local-decoder.ts), and decodes with the Basis
// Universal transcoder copied beside it (`basisTranscoder/1/`, from @babylonjs/core/assets/Basis): no CDN.
import { transcodeKtx2, type BasisModule } from './transcode.ts';

// Worker globals (the renderer's type-check has the DOM library, not the worker one).
declare function importScripts(...urls: string[]): void;
declare function postMessage(message: unknown, transfer?: Transferable[]): void;
declare const self: { location: { href: string }; onmessage: ((event: MessageEvent) => void) | null };
type BasisFactory = (options: { locateFile(path: string): string }) => Promise<BasisModule>;

const TRANSCODER_FOLDER = new URL('basisTranscoder/1/', self.location.href).href;
let basis: Promise<BasisModule> | undefined;

function transcoder(): Promise<BasisModule> {
  basis ??= (async () => {
    importScripts(`${TRANSCODER_FOLDER}basis_transcoder.js`); // a classic script: it defines the global BASIS
    const factory = (globalThis as unknown as { BASIS: BasisFactory }).BASIS;
    const module = await factory({ locateFile: (path) => TRANSCODER_FOLDER + path });
    module.initializeBasis();
    return module;
  })();
  return basis;
}

self.onmessage = (event: MessageEvent) => {
  const message = event.data as { action?: string; data?: Uint8Array } | null;
  switch (message?.action) {
    case 'init':
      // The transcoder is read on the first decode (a model without KTX2 textures never needs it).
      postMessage({ action: 'init' });
      break;
    case 'decode':
      transcoder()
        .then((module) => {
          const decoded = transcodeKtx2(module, message.data!);
          postMessage(
            { action: 'decoded', success: true, decodedData: decoded },
            decoded.mipmaps.map((m) => m.data.buffer as ArrayBuffer),
          );
        })
        .catch((error: unknown) => {
          postMessage({
            action: 'decoded',
            success: false,
            msg: error instanceof Error ? error.message : `The KTX2 texture could not be decoded (${String(error)}).`,
          });
        });
      break;
    default:
      break; // setDefaultDecoderOptions: this decoder always gives RGBA8, which every WebGL supports
  }
};
