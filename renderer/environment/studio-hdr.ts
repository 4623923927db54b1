// A neutral "studio" environment for the viewer's image-based lighting, generated here (deterministically,
// no randomness) rather than downloaded: renderer/build.ts writes it beside app.js as environment/studio.hdr
// and renderer/viewer/scene/environment.ts loads it from the page's own origin (nothing is fetched from a CDN).
//
// The image is an equirectangular panorama in Radiance RGBE (.hdr, new-style run-length encoded scanlines):
// a soft grey sky over a darker grey floor with a blurred horizon, and three soft boxes (a key, a fill and a
// strip overhead) bright enough that metals and glossy materials show readable highlights. It is neutral
// grey (equal R, G and B) so that a model's colours come out true; `tint` multiplies it (the tests use that
// to make an environment that visibly differs).
//
// Runs in Node only (the build and the tests); the renderer never imports it.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface StudioOptions {
  /** Panorama width in pixels (height is half of it); default 512. */
  width?: number;
  /** Multiplies the radiance per channel; default [1, 1, 1] (neutral). */
  tint?: readonly [number, number, number];
}

/** A soft box: where it is (elevation and azimuth in degrees), its angular radius, and its radiance. */
interface SoftBox {
  elevation: number;
  azimuth: number;
  radius: number;
  radiance: number;
}

export const SOFT_BOXES: readonly SoftBox[] = [
  { elevation: 40, azimuth: -50, radius: 15, radiance: 7 }, // key
  { elevation: 25, azimuth: 130, radius: 20, radiance: 2 }, // fill, behind on the other side
  { elevation: 75, azimuth: 20, radius: 11, radiance: 3.5 }, // strip overhead
];

const SKY_ZENITH = 0.6;
const SKY_HORIZON = 0.42;
const GROUND_HORIZON = 0.22;
const GROUND_NADIR = 0.1;

const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/**
 * The studio's radiance (one value: it is grey) in a direction given by elevation (radians, +π/2 straight
 * up) and azimuth (radians, 0 at the panorama's centre column, increasing to the right).
 */
export function studioRadiance(elevation: number, azimuth: number): number {
  const s = Math.sin(elevation);
  const sky = SKY_HORIZON + (SKY_ZENITH - SKY_HORIZON) * Math.sqrt(Math.max(0, s));
  const ground = GROUND_HORIZON + (GROUND_NADIR - GROUND_HORIZON) * Math.sqrt(Math.max(0, -s));
  const up = smoothstep(-0.06, 0.06, s); // a soft horizon (about ±3.5°)
  let value = ground + (sky - ground) * up;
  const dir = [Math.cos(elevation) * Math.sin(azimuth), s, Math.cos(elevation) * Math.cos(azimuth)] as const;
  for (const box of SOFT_BOXES) {
    const e = (box.elevation * Math.PI) / 180;
    const a = (box.azimuth * Math.PI) / 180;
    const c = [Math.cos(e) * Math.sin(a), Math.sin(e), Math.cos(e) * Math.cos(a)] as const;
    const cos = Math.min(1, Math.max(-1, dir[0] * c[0] + dir[1] * c[1] + dir[2] * c[2]));
    const angle = (Math.acos(cos) * 180) / Math.PI;
    // A flat-topped falloff: bright and even inside, soft at the edge (like a diffuser panel).
    value += box.radiance * Math.exp(-((angle / box.radius) ** 4));
  }
  return value;
}

/** Elevation and azimuth (radians) at the centre of pixel (x, y) of a width × height panorama. */
export function directionOf(x: number, y: number, width: number, height: number): { elevation: number; azimuth: number } {
  return { elevation: Math.PI / 2 - ((y + 0.5) / height) * Math.PI, azimuth: ((x + 0.5) / width - 0.5) * 2 * Math.PI };
}

/** The studio panorama as linear RGB floats, row by row from the top. */
export function studioPixels(options: StudioOptions = {}): { width: number; height: number; rgb: Float32Array } {
  const width = options.width ?? 512;
  if (!Number.isInteger(width) || width < 16 || width % 2 !== 0 || width > 0x7fff) throw new Error(`studio width must be an even integer from 16 to 32767, not ${width}`);
  const height = width / 2;
  const [tr, tg, tb] = options.tint ?? [1, 1, 1];
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const { elevation, azimuth } = directionOf(x, y, width, height);
      const v = studioRadiance(elevation, azimuth);
      const i = (y * width + x) * 3;
      rgb[i] = v * tr;
      rgb[i + 1] = v * tg;
      rgb[i + 2] = v * tb;
    }
  return { width, height, rgb };
}

/** One pixel in RGBE: three 8-bit mantissas sharing an exponent (Greg Ward's encoding, as frexp does it). */
export function toRgbe(r: number, g: number, b: number): [number, number, number, number] {
  const max = Math.max(r, g, b);
  if (!(max > 1e-32)) return [0, 0, 0, 0];
  let exponent = Math.ceil(Math.log2(max));
  // max / 2^exponent must lie in [0.5, 1): fix rounding at exact powers of two.
  if (max / 2 ** exponent >= 1) exponent++;
  if (max / 2 ** exponent < 0.5) exponent--;
  if (exponent > 127) return [255, 255, 255, 255];
  if (exponent < -128) return [0, 0, 0, 0];
  const scale = 256 / 2 ** exponent;
  const m = (c: number) => Math.min(255, Math.max(0, Math.floor(Math.max(0, c) * scale)));
  return [m(r), m(g), m(b), exponent + 128];
}

/** One channel of a scanline, run-length encoded (runs of 3+ equal bytes as runs, the rest as literals). */
function encodeChannel(bytes: Uint8Array, out: number[]) {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    // Find the next run of at least 3 equal bytes.
    let runStart = i;
    let runLength = 0;
    while (runStart < n) {
      runLength = 1;
      while (runStart + runLength < n && runLength < 127 && bytes[runStart + runLength] === bytes[runStart]) runLength++;
      if (runLength >= 3) break;
      runStart += runLength;
    }
    if (runStart >= n) runLength = 0;
    // Literals up to the run (at most 128 at a time).
    while (i < runStart) {
      const count = Math.min(128, runStart - i);
      out.push(count);
      for (let k = 0; k < count; k++) out.push(bytes[i + k]!);
      i += count;
    }
    if (runLength >= 3) {
      out.push(128 + runLength, bytes[runStart]!);
      i = runStart + runLength;
    }
  }
}

/** A Radiance .hdr file (RGBE, run-length encoded scanlines, -Y height +X width) of linear RGB floats. */
export function encodeHdr(width: number, height: number, rgb: Float32Array): Buffer {
  if (rgb.length !== width * height * 3) throw new Error('encodeHdr: the pixel array does not match the size');
  if (width < 8 || width > 0x7fff) throw new Error('encodeHdr: run-length encoded scanlines need a width from 8 to 32767');
  const header = `#?RADIANCE\n# Asset Studio neutral studio environment\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1.0\n\n-Y ${height} +X ${width}\n`;
  const out: number[] = [];
  const channels = [new Uint8Array(width), new Uint8Array(width), new Uint8Array(width), new Uint8Array(width)] as const;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const e = toRgbe(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!);
      for (let c = 0; c < 4; c++) channels[c]![x] = e[c]!;
    }
    out.push(2, 2, width >> 8, width & 0xff);
    for (const channel of channels) encodeChannel(channel, out);
  }
  return Buffer.concat([Buffer.from(header, 'latin1'), Buffer.from(out)]);
}

/** The studio environment as .hdr bytes. */
export function studioHdr(options: StudioOptions = {}): Buffer {
  const { width, height, rgb } = studioPixels(options);
  return encodeHdr(width, height, rgb);
}

/** Writes the studio environment to `path` (its folder created). */
export async function writeStudioHdr(path: string, options: StudioOptions = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, studioHdr(options));
}
