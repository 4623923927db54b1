// Decoding a session's picture to 8-bit RGBA: PNG (every colour type and bit depth, through pngjs), JPEG
// (baseline and progressive, through jpeg-js) and GIF (its first frame, through omggif). WebP is an accepted
// input of the service that this engine does not decode; it says so instead of making something up.
import { GifReader } from 'omggif';
import jpeg from 'jpeg-js';
import pngjs from 'pngjs';

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, rows top to bottom. */
  data: Uint8Array;
}

/** Pictures above this many pixels are refused (64 megapixels: more than any service input). */
export const MAX_PIXELS = 64 * 2 ** 20;

/** Why a picture could not be decoded; `reason` completes "The picture …". */
export class ImageDecodeError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`The picture ${reason}`);
    this.name = 'ImageDecodeError';
    this.reason = reason;
  }
}

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export function imageFormatOf(bytes: Uint8Array): ImageFormat | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a'))
    return 'gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

export function decodeImage(bytes: Uint8Array): RgbaImage {
  const format = imageFormatOf(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    switch (format) {
      case 'png': {
        const png = pngjs.PNG.sync.read(buffer);
        return checked({
          width: png.width,
          height: png.height,
          data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength),
        });
      }
      case 'jpeg': {
        const decoded = jpeg.decode(buffer, {
          useTArray: true,
          formatAsRGBA: true,
          maxResolutionInMP: MAX_PIXELS / 1e6,
          maxMemoryUsageInMB: 2048,
        });
        return checked({ width: decoded.width, height: decoded.height, data: decoded.data });
      }
      case 'gif': {
        const gif = new GifReader(buffer);
        sizeCheck(gif.width, gif.height);
        const data = new Uint8Array(gif.width * gif.height * 4);
        gif.decodeAndBlitFrameRGBA(0, data);
        return { width: gif.width, height: gif.height, data };
      }
      case 'webp':
        throw new ImageDecodeError('is a WebP image, which the local engine does not decode: send it as PNG or JPEG');
      default:
        throw new ImageDecodeError('is not a PNG, JPEG or GIF image');
    }
  } catch (error) {
    if (error instanceof ImageDecodeError) throw error;
    throw new ImageDecodeError(
      `could not be decoded as ${format?.toUpperCase()} (${error instanceof Error ? error.message : String(error)}): it may be damaged or cut off`,
    );
  }
}

function sizeCheck(width: number, height: number): void {
  if (!(width >= 1 && height >= 1)) throw new ImageDecodeError(`has no pixels (${width}×${height})`);
  if (width * height > MAX_PIXELS)
    throw new ImageDecodeError(
      `is ${width}×${height}, more than the ${MAX_PIXELS / 2 ** 20} megapixels the engine reads`,
    );
}

function checked(image: RgbaImage): RgbaImage {
  sizeCheck(image.width, image.height);
  if (image.data.length !== image.width * image.height * 4)
    throw new ImageDecodeError('decoded to the wrong number of bytes');
  return image;
}
