// PNG decoding down to brightness: every colour type and bit depth, Adam7 interlacing, palette
// transparency. Pure TypeScript on node:zlib. Transparent pixels are laid over white and, separately,
// over black, since a service that re-encodes to an opaque format may flatten either way.
import { inflateSync } from 'node:zlib';
import { LumaGrid, luma } from './luma-grid.ts';

export interface DecodedLuma {
  /** One grid for an opaque picture; over white, then over black, when some pixels are transparent. */
  grids: LumaGrid[];
  width: number;
  height: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Pictures above this many pixels are not decoded (the service's own limit is far lower). */
const MAX_PIXELS = 64 * 2 ** 20;
// Adam7: x start, y start, x step, y step of each pass.
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export const isPng = (bytes: Uint8Array): boolean => bytes.length > 8 && SIGNATURE.equals(bytes.subarray(0, 8));

/** Throws an Error saying what is wrong when the bytes are not a PNG this can read. */
export function decodePngLuma(bytes: Buffer): DecodedLuma {
  if (!isPng(bytes)) throw new Error('not a PNG image');
  let header: { width: number; height: number; depth: number; colorType: number; interlaced: boolean } | undefined;
  let palette: Buffer | undefined;
  let paletteAlpha: Buffer | undefined;
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (body.length !== length) throw new Error(`the ${type} chunk is cut off`);
    at += 12 + length;
    if (type === 'IHDR') {
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth: body[8]!, colorType: body[9]!, interlaced: body[12] === 1 };
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') paletteAlpha = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
  }
  if (!header) throw new Error('the PNG has no IHDR chunk');
  const { width, height, depth, colorType, interlaced } = header;
  const channels = CHANNELS[colorType];
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(depth)) throw new Error(`PNG colour type ${colorType} with bit depth ${depth} is not valid`);
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new Error(`a ${width} × ${height} PNG is not compared`);
  if (colorType === 3 && !palette) throw new Error('the palette PNG has no palette');

  const bitsPerPixel = channels * depth;
  const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const rowBytes = (w: number) => Math.ceil((w * bitsPerPixel) / 8);
  let expected = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w > 0 && h > 0) expected += (rowBytes(w) + 1) * h;
  }
  const raw = inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1024 });
  if (raw.length < expected) throw new Error('the PNG image data is shorter than its size says');

  const white = new LumaGrid(width, height);
  const black = new LumaGrid(width, height);
  let transparent = false;
  const max = 2 ** depth - 1;
  const sample = (row: Buffer, index: number): number => {
    if (depth === 8) return row[index]!;
    if (depth === 16) return row[index * 2]!; // the high byte
    const bit = index * depth;
    return ((row[bit >> 3]! >> (8 - depth - (bit & 7))) & max) * (colorType === 3 ? 1 : 255 / max);
  };
  const pixel = (row: Buffer, x: number): [number, number] => {
    const s = x * channels;
    switch (colorType) {
      case 0:
        return [sample(row, s), 255];
      case 2:
        return [luma(sample(row, s), sample(row, s + 1), sample(row, s + 2)), 255];
      case 3: {
        const i = sample(row, s);
        return [luma(palette![i * 3] ?? 0, palette![i * 3 + 1] ?? 0, palette![i * 3 + 2] ?? 0), paletteAlpha?.[i] ?? 255];
      }
      case 4:
        return [sample(row, s), sample(row, s + 1)];
      default:
        return [luma(sample(row, s), sample(row, s + 1), sample(row, s + 2)), sample(row, s + 3)];
    }
  };

  const bpp = Math.max(1, bitsPerPixel >> 3);
  let offset = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    const stride = rowBytes(w);
    let previous = Buffer.alloc(stride);
    for (let r = 0; r < h; r++) {
      const filter = raw[offset]!;
      const row = raw.subarray(offset + 1, offset + 1 + stride);
      offset += stride + 1;
      unfilter(filter, row, previous, bpp);
      const y = y0 + r * dy;
      for (let i = 0; i < w; i++) {
        const [value, alpha] = pixel(row, i);
        const x = x0 + i * dx;
        if (alpha >= 255) {
          white.add(x, y, value);
          black.add(x, y, value);
        } else {
          transparent = true;
          const a = alpha / 255;
          white.add(x, y, value * a + 255 * (1 - a));
          black.add(x, y, value * a);
        }
      }
      previous = row;
    }
  }
  return { grids: transparent ? [white, black] : [white], width, height };
}

function unfilter(filter: number, row: Buffer, previous: Buffer, bpp: number): void {
  for (let i = 0; i < row.length; i++) {
    const left = i >= bpp ? row[i - bpp]! : 0;
    const up = previous[i]!;
    const upLeft = i >= bpp ? previous[i - bpp]! : 0;
    switch (filter) {
      case 0:
        return;
      case 1:
        row[i] = row[i]! + left;
        break;
      case 2:
        row[i] = row[i]! + up;
        break;
      case 3:
        row[i] = row[i]! + ((left + up) >> 1);
        break;
      case 4:
        row[i] = row[i]! + paeth(left, up, upLeft);
        break;
      default:
        throw new Error(`unknown PNG row filter ${filter}`);
    }
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
