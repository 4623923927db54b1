// KTX2 textures (glTF KHR_texture_basisu: ETC1S or UASTC, optionally Zstandard-supercompressed) decoded
// with the Basis Universal transcoder that ships in @babylonjs/core/assets/Basis (copied to the app's
// `babylon/basisTranscoder/1/` by renderer/build.ts), into the shape Babylon's KTX2 texture code uploads:
// RGBA8 levels. Babylon's own KTX2 decoder is not on npm; without this a KTX2 texture would need its CDN.
// Pure: the worker (ktx2-worker.ts) gives it the transcoder module; the tests run it in Node.

/** The parts of the Basis Universal transcoder's module (emscripten, embind) used here. */
export interface BasisModule {
  initializeBasis(): void;
  KTX2File: new (data: Uint8Array) => BasisKtx2File;
  transcoder_texture_format: { cTFRGBA32: { value: number } };
}

interface BasisKtx2File {
  isValid(): boolean;
  getWidth(): number;
  getHeight(): number;
  getLevels(): number;
  getLayers(): number;
  getFaces(): number;
  getHasAlpha(): boolean;
  isUASTC(): boolean;
  getImageLevelInfo(level: number, layer: number, face: number): { origWidth: number; origHeight: number };
  startTranscoding(): boolean;
  getImageTranscodedSizeInBytes(level: number, layer: number, face: number, format: number): number;
  transcodeImage(
    dst: Uint8Array,
    level: number,
    layer: number,
    face: number,
    format: number,
    getAlphaForOpaqueFormats: number,
    channel0: number,
    channel1: number,
  ): number;
  close(): void;
  delete(): void;
}

/** What Babylon's KhronosTextureContainer2 uploads (its IDecodedData). */
export interface DecodedKtx2 {
  width: number;
  height: number;
  /** GL internal format: RGBA8. */
  transcodedFormat: number;
  mipmaps: { data: Uint8Array; width: number; height: number }[];
  isInGammaSpace: boolean;
  hasAlpha: boolean;
  transcoderName: string;
}

const GL_RGBA8 = 0x8058;
const KHR_DF_TRANSFER_SRGB = 2;
const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];

/** Why a KTX2 texture cannot be shown: the message names the file's problem. */
export class Ktx2Error extends Error {
  override name = 'Ktx2Error';
}

/**
 * The transfer function of the file's data format descriptor (KTX2 header: dfdByteOffset at byte 48; the
 * basic block's third word holds colour model, primaries, transfer function, flags).
 */
export function transferFunction(bytes: Uint8Array): number | undefined {
  if (bytes.length < 80 || KTX2_IDENTIFIER.some((b, i) => bytes[i] !== b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dfd = view.getUint32(48, true);
  return dfd + 15 <= bytes.length ? bytes[dfd + 4 + 8 + 2] : undefined;
}

/** Transcodes every mip level of a 2D KTX2 texture to RGBA8. */
export function transcodeKtx2(basis: BasisModule, bytes: Uint8Array): DecodedKtx2 {
  if (KTX2_IDENTIFIER.some((b, i) => bytes[i] !== b))
    throw new Ktx2Error('The texture is not a KTX2 file (its header is wrong).');
  const file = new basis.KTX2File(bytes);
  try {
    if (!file.isValid())
      throw new Ktx2Error('The KTX2 texture is damaged or uses a format the Basis Universal transcoder does not read.');
    if (file.getLayers() > 1 || file.getFaces() > 1)
      throw new Ktx2Error('KTX2 array and cube textures are not supported in models; only 2D textures are.');
    if (!file.startTranscoding())
      throw new Ktx2Error(
        'The KTX2 texture could not be prepared for decoding (its supercompression is not supported, or the data is damaged).',
      );
    const format = basis.transcoder_texture_format.cTFRGBA32.value;
    const mipmaps: DecodedKtx2['mipmaps'] = [];
    for (let level = 0; level < file.getLevels(); level++) {
      const { origWidth, origHeight } = file.getImageLevelInfo(level, 0, 0);
      const data = new Uint8Array(file.getImageTranscodedSizeInBytes(level, 0, 0, format));
      if (!file.transcodeImage(data, level, 0, 0, format, 0, -1, -1))
        throw new Ktx2Error(`Mip level ${level} of the KTX2 texture could not be decoded (damaged data).`);
      mipmaps.push({ data, width: origWidth, height: origHeight });
    }
    return {
      width: file.getWidth(),
      height: file.getHeight(),
      transcodedFormat: GL_RGBA8,
      mipmaps,
      isInGammaSpace: transferFunction(bytes) === KHR_DF_TRANSFER_SRGB,
      hasAlpha: file.getHasAlpha(),
      transcoderName: `Basis Universal (${file.isUASTC() ? 'UASTC' : 'ETC1S'} to RGBA8, local)`,
    };
  } finally {
    file.close();
    file.delete();
  }
}
