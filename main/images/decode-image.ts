// Decoding a session's picture to 8-bit RGBA: PNG (every colour type and bit depth, through pngjs), JPEG
// (baseline and progressive, through jpeg-js) and GIF (its first frame, through omggif). WebP is an accepted
// input of the service that this engine does not decode; it says so instead of making something up.
import { GifReader } from 'omggif';
import jpeg from 'jpeg-js';
import pngjs from 'pngjs';
import { signatureOf } from '../../shared/file-signature.ts';

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

/** A picture's format by its signature (shared/file-signature.ts), when it is one this module decodes or names. */
export function imageFormatOf(bytes: Uint8Array): ImageFormat | undefined {
  const kind = signatureOf(bytes);
  return kind === 'png' || kind === 'jpeg' || kind === 'gif' || kind === 'webp' ? kind : undefined;
}

const MEGAPIXELS = `${MAX_PIXELS / 2 ** 20} megapixels`;

/**
 * Checks the sizes a picture declares in its headers before anything is decoded or inflated: a PNG's IHDR, a
 * JPEG's frame header (SOFn), each GIF frame's own size (not only the logical screen). Throws an ImageDecodeError
 * naming the limit when one passes MAX_PIXELS (a decompression bomb: a few bytes declaring billions of pixels).
 */
export function checkDeclaredSize(bytes: Uint8Array): void {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = imageFormatOf(b);
  const refuse = (what: string, width: number, height: number) => {
    if (width * height > MAX_PIXELS)
      throw new ImageDecodeError(
        `${what} declares ${width}×${height} pixels, more than the ${MEGAPIXELS} the local engine reads`,
      );
  };
  if (format === 'png' && b.length >= 24 && b.toString('latin1', 12, 16) === 'IHDR')
    refuse('is a PNG whose header', b.readUInt32BE(16), b.readUInt32BE(20));
  else if (format === 'jpeg') {
    const size = jpegFrameSize(b);
    if (size) refuse('is a JPEG whose frame header', size.width, size.height);
  } else if (format === 'gif') {
    let gif: GifReader;
    try {
      gif = new GifReader(b); // reads every frame's header and skips its data: nothing is decoded
    } catch (error) {
      throw new ImageDecodeError(
        `could not be decoded as GIF (${error instanceof Error ? error.message : String(error)}): it may be damaged or cut off`,
      );
    }
    refuse('is a GIF whose logical screen', gif.width, gif.height);
    for (let i = 0; i < gif.numFrames(); i++) {
      const frame = gif.frameInfo(i);
      refuse(`is a GIF whose frame ${i + 1}`, frame.width, frame.height);
    }
  }
}

/** The size in a JPEG's first frame header (SOFn), walking its segments; undefined when none is found. */
function jpegFrameSize(b: Buffer): { width: number; height: number } | undefined {
  let pos = 2;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return undefined;
    const marker = b[pos + 1]!;
    if (marker === 0xff) {
      pos += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      pos += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (pos + 9 > b.length) return undefined;
      return { width: b.readUInt16BE(pos + 7), height: b.readUInt16BE(pos + 5) };
    }
    pos += 2 + b.readUInt16BE(pos + 2);
  }
  return undefined;
}

export function decodeImage(bytes: Uint8Array): RgbaImage {
  const format = imageFormatOf(bytes);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  checkDeclaredSize(buffer); // before pngjs inflates, jpeg-js allocates or omggif loops over a frame's pixels
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
    throw new ImageDecodeError(`is ${width}×${height}, more than the ${MEGAPIXELS} the local engine reads`);
}

function checked(image: RgbaImage): RgbaImage {
  sizeCheck(image.width, image.height);
  if (image.data.length !== image.width * image.height * 4)
    throw new ImageDecodeError('decoded to the wrong number of bytes');
  return image;
}
