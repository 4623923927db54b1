// A style's palette: the colours of the images in its training zip (k-means over a sample of their pixels),
// applied to the pictures drawn later with that style.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { decodeImage } from '../../images/decode-image.ts';
import type { Rgb } from './words.ts';

/** How many colours a palette keeps. */
export const PALETTE_SIZE = 5;
const IMAGE_ENTRY = /\.(png|jpe?g|gif)$/i;
const MAX_IMAGES = 32;
const SAMPLES_PER_IMAGE = 2000;

/** Largest image entry of a style zip read, declared or inflated (as an image input: 50 MiB). */
export const MAX_STYLE_IMAGE_BYTES = 50 * 2 ** 20;
/** Largest central directory read (65,535 entries of short names fit well within it). */
const MAX_CENTRAL_DIRECTORY_BYTES = 16 * 2 ** 20;

/** Bytes of a zip at a position: a buffer's, or a file's read on demand. */
type ReadAt = (position: number, length: number) => Buffer;

/**
 * The image entries of a zip, one at a time (read from its central directory; stored and deflated entries),
 * so that one image's bytes at most are held. An entry declaring more than MAX_STYLE_IMAGE_BYTES is skipped
 * before it is inflated, and one inflating past what it declares is cut there (maxOutputLength). Unreadable
 * entries are skipped.
 */
export function* zipImages(zip: Buffer | { read: ReadAt; size: number }): Generator<Buffer> {
  const read: ReadAt = Buffer.isBuffer(zip) ? (p, n) => zip.subarray(p, p + n) : zip.read;
  const size = Buffer.isBuffer(zip) ? zip.length : zip.size;
  const tailStart = Math.max(0, size - 65_557); // the end record (22 bytes) and its comment (64 KiB at most)
  const tail = read(tailStart, size - tailStart);
  const endAt = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0 || endAt + 22 > tail.length)
    throw new Error('The style zip has no central directory: it is not a complete zip archive');
  const entries = tail.readUInt16LE(endAt + 10);
  const cdSize = Math.min(tail.readUInt32LE(endAt + 12), MAX_CENTRAL_DIRECTORY_BYTES);
  const cdStart = tail.readUInt32LE(endAt + 16);
  const cd = read(cdStart, cdSize);
  let at = 0;
  let found = 0;
  for (let n = 0; n < entries && at + 46 <= cd.length && cd.readUInt32LE(at) === 0x02014b50; n++) {
    const method = cd.readUInt16LE(at + 10);
    const packedSize = cd.readUInt32LE(at + 20);
    const declared = cd.readUInt32LE(at + 24);
    const nameLength = cd.readUInt16LE(at + 28);
    const skip = nameLength + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32);
    const name = cd.toString('utf8', at + 46, at + 46 + nameLength);
    const local = cd.readUInt32LE(at + 42);
    at += 46 + skip;
    if (!IMAGE_ENTRY.test(name) || name.startsWith('__MACOSX/') || found >= MAX_IMAGES) continue;
    if (declared > MAX_STYLE_IMAGE_BYTES || packedSize > MAX_STYLE_IMAGE_BYTES) continue; // checked before inflating
    const header = read(local, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) continue;
    const start = local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const compressed = read(start, packedSize); // the central directory's compressed size (a local header may say 0)
    try {
      if (method === 0) {
        found++;
        yield Buffer.from(compressed);
      } else if (method === 8) {
        const image = inflateRawSync(compressed, { maxOutputLength: Math.max(declared, 1) });
        found++;
        yield image;
      }
    } catch {
      // a damaged entry, or one inflating past what it declares: the others still make the palette
    }
  }
}

/** The palette of a style zip (its bytes, or the path of its file, read an entry at a time): up to PALETTE_SIZE colours, most common first; empty when no image decodes. */
export function paletteOfZip(zip: Buffer | string): Rgb[] {
  if (typeof zip !== 'string') return paletteOf(zipImages(zip));
  const fd = openSync(zip, 'r');
  try {
    const read: ReadAt = (position, length) => {
      const buffer = Buffer.alloc(length);
      return buffer.subarray(0, readSync(fd, buffer, 0, length, position));
    };
    return paletteOf(zipImages({ read, size: fstatSync(fd).size }));
  } finally {
    closeSync(fd);
  }
}

function paletteOf(images: Iterable<Buffer>): Rgb[] {
  const samples: Rgb[] = [];
  for (const bytes of images) {
    let image: ReturnType<typeof decodeImage>;
    try {
      image = decodeImage(bytes);
    } catch {
      continue;
    }
    const pixels = image.width * image.height;
    const step = Math.max(1, Math.floor(pixels / SAMPLES_PER_IMAGE));
    for (let p = 0; p < pixels; p += step) {
      if (image.data[p * 4 + 3]! < 128) continue;
      samples.push([image.data[p * 4]! / 255, image.data[p * 4 + 1]! / 255, image.data[p * 4 + 2]! / 255]);
    }
  }
  return kMeans(samples, PALETTE_SIZE);
}

/** k-means (deterministic start: spread over the samples sorted by brightness); clusters by size, largest first. */
export function kMeans(samples: Rgb[], k: number): Rgb[] {
  if (samples.length === 0) return [];
  const sorted = [...samples].sort((a, b) => a[0] + a[1] + a[2] - (b[0] + b[1] + b[2]));
  let centres: Rgb[] = Array.from(
    { length: Math.min(k, sorted.length) },
    (_, i) => sorted[Math.floor(((i + 0.5) * sorted.length) / k)]!,
  );
  let counts: number[] = [];
  for (let round = 0; round < 12; round++) {
    const sums = centres.map((): [number, number, number] => [0, 0, 0]);
    counts = centres.map(() => 0);
    for (const s of samples) {
      const i = nearest(centres, s);
      sums[i]![0] += s[0];
      sums[i]![1] += s[1];
      sums[i]![2] += s[2];
      counts[i]!++;
    }
    centres = centres.map((c, i) =>
      counts[i]! > 0 ? [sums[i]![0] / counts[i]!, sums[i]![1] / counts[i]!, sums[i]![2] / counts[i]!] : c,
    );
  }
  return centres
    .map((c, i) => ({ c, n: counts[i]! }))
    .filter((e) => e.n > 0)
    .sort((a, b) => b.n - a.n)
    .map((e) => e.c.map((v) => Math.round(v * 1000) / 1000) as Rgb);
}

export function nearest(palette: Rgb[], c: Rgb): number {
  let best = 0;
  let bestDistance = Infinity;
  palette.forEach((p, i) => {
    const d = (p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2 + (p[2] - c[2]) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

/**
 * Moves every pixel `amount` of the way towards the palette: to a blend of its colours weighted by nearness
 * (a soft choice, so gradients stay smooth instead of breaking into bands at the nearest colour's borders).
 */
export function applyPalette(rgb: Float32Array, palette: Rgb[], amount = 0.55): void {
  if (palette.length === 0) return;
  const weights = new Float64Array(palette.length);
  for (let i = 0; i < rgb.length; i += 3) {
    let total = 0;
    palette.forEach((p, k) => {
      const d = (p[0] - rgb[i]!) ** 2 + (p[1] - rgb[i + 1]!) ** 2 + (p[2] - rgb[i + 2]!) ** 2;
      weights[k] = Math.exp(-d / SOFTNESS);
      total += weights[k]!;
    });
    for (let j = 0; j < 3; j++) {
      let target = 0;
      palette.forEach((p, k) => {
        target += (p[j]! * weights[k]!) / total;
      });
      rgb[i + j] = rgb[i + j]! * (1 - amount) + target * amount;
    }
  }
}

/** How far (squared RGB distance) a palette colour's pull reaches: about a third of the colour cube's diagonal. */
const SOFTNESS = 0.08;
