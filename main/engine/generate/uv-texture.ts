// The texture atlas of a relief: the left half is the picture (the square the front's UVs map), the right half
// the same picture dimmed (the back, seen mirrored from behind). Texels outside the subject take the colour of the
// nearest texel inside (edge padding), so filtering and mipmaps never bring the background in at the outline.
// For PBR, two more atlases of the same layout: metallic-roughness (glTF: green roughness, blue metalness)
// and a tangent-space normal map, both estimated from the picture's shading (a heuristic, not a measurement).
import type { RgbaImage } from '../../images/decode-image.ts';
import { bilinearCell, type Mask } from './raster.ts';
import type { Crop } from './relief-mesh.ts';

export interface TextureAtlas {
  /** Width is twice the height: front half, back half. */
  width: number;
  height: number;
  baseColor: Uint8Array;
  metallicRoughness?: Uint8Array;
  normal?: Uint8Array;
  /** The subject's average colour (sRGB, each channel in [0, 1]). */
  meanColor: [number, number, number];
}

/** Brightness of the back half against the front. */
const BACK_DIM = 0.55;
/** Height of the normal map's relief per unit of brightness, in texels. */
const NORMAL_STRENGTH = 2.5;

/**
 * `picture` is the decoded picture; `mask` and `crop` are in working pixels, `factor` picture pixels each.
 * `size` is the height of the atlas (each half is size × size).
 */
export function buildAtlas(
  picture: RgbaImage,
  mask: Mask,
  factor: number,
  crop: Crop,
  size: number,
  pbr: boolean,
): TextureAtlas {
  const width = size * 2;
  const front = new Float32Array(size * size * 3);
  const inside = new Uint8Array(size * size);
  const sum = [0, 0, 0];
  let count = 0;
  for (let ty = 0; ty < size; ty++) {
    for (let tx = 0; tx < size; tx++) {
      const wx = crop.x + ((tx + 0.5) / size) * crop.size;
      const wy = crop.y + ((ty + 0.5) / size) * crop.size;
      const mx = Math.floor(wx);
      const my = Math.floor(wy);
      if (mx < 0 || my < 0 || mx >= mask.width || my >= mask.height || mask.data[my * mask.width + mx] !== 1) continue;
      const t = ty * size + tx;
      if (!samplePremultiplied(picture, wx * factor, wy * factor, front, t * 3)) continue;
      inside[t] = 1;
      for (let k = 0; k < 3; k++) sum[k]! += front[t * 3 + k]!;
      count++;
    }
  }
  const mean = sum.map((v) => (count > 0 ? v / count : 128)) as [number, number, number];
  padOutward(front, inside, size, mean);

  const baseColor = new Uint8Array(width * size * 4);
  for (let ty = 0; ty < size; ty++) {
    for (let tx = 0; tx < size; tx++) {
      const t = ty * size + tx;
      const f = (ty * width + tx) * 4;
      const b = f + size * 4;
      for (let k = 0; k < 3; k++) {
        baseColor[f + k] = Math.round(front[t * 3 + k]!);
        baseColor[b + k] = Math.round(front[t * 3 + k]! * BACK_DIM);
      }
      baseColor[f + 3] = 255;
      baseColor[b + 3] = 255;
    }
  }
  const atlas: TextureAtlas = {
    width,
    height: size,
    baseColor,
    meanColor: mean.map((v) => v / 255) as [number, number, number],
  };
  if (pbr) Object.assign(atlas, surfaceMaps(front, size));
  return atlas;
}

/** Bilinear colour with alpha weighting (transparent neighbours bring no colour); false where all four are transparent. */
function samplePremultiplied(image: RgbaImage, x: number, y: number, out: Float32Array, at: number): boolean {
  const { x0, y0, x1, y1, tx, ty } = bilinearCell(image.width, image.height, x, y);
  const d = image.data;
  const w = image.width;
  const i00 = (y0 * w + x0) * 4;
  const i10 = (y0 * w + x1) * 4;
  const i01 = (y1 * w + x0) * 4;
  const i11 = (y1 * w + x1) * 4;
  const w00 = (1 - tx) * (1 - ty) * d[i00 + 3]!;
  const w10 = tx * (1 - ty) * d[i10 + 3]!;
  const w01 = (1 - tx) * ty * d[i01 + 3]!;
  const w11 = tx * ty * d[i11 + 3]!;
  const a = w00 + w10 + w01 + w11;
  const r = d[i00]! * w00 + d[i10]! * w10 + d[i01]! * w01 + d[i11]! * w11;
  const g = d[i00 + 1]! * w00 + d[i10 + 1]! * w10 + d[i01 + 1]! * w01 + d[i11 + 1]! * w11;
  const b = d[i00 + 2]! * w00 + d[i10 + 2]! * w10 + d[i01 + 2]! * w01 + d[i11 + 2]! * w11;
  if (a <= 0) return false;
  out[at] = r / a;
  out[at + 1] = g / a;
  out[at + 2] = b / a;
  return true;
}

/** Every texel outside the subject takes the colour of the nearest inside texel (breadth-first from the subject). */
function padOutward(rgb: Float32Array, inside: Uint8Array, size: number, fallback: number[]): void {
  const n = size * size;
  const done = new Uint8Array(inside);
  const queue = new Int32Array(n);
  let tail = 0;
  for (let t = 0; t < n; t++) if (done[t] === 1) queue[tail++] = t;
  for (let head = 0; head < tail; head++) {
    const p = queue[head]!;
    const x = p % size;
    for (let k = 0; k < 4; k++) {
      const q = k === 0 ? (x > 0 ? p - 1 : -1) : k === 1 ? (x < size - 1 ? p + 1 : -1) : k === 2 ? p - size : p + size;
      if (q < 0 || q >= n || done[q] === 1) continue;
      done[q] = 1;
      rgb[q * 3] = rgb[p * 3]!;
      rgb[q * 3 + 1] = rgb[p * 3 + 1]!;
      rgb[q * 3 + 2] = rgb[p * 3 + 2]!;
      queue[tail++] = q;
    }
  }
  if (tail === 0) for (let t = 0; t < n; t++) rgb.set(fallback, t * 3);
}

/**
 * Metallic-roughness and normal atlases from the front's colours. Brightness is read as height for the normal
 * map; a highlight brighter than its surroundings reads as glossy (lower roughness); grey glossy areas with strong
 * local contrast (chrome, steel) read as partly metallic. Both halves get the same maps.
 */
function surfaceMaps(rgb: Float32Array, size: number): { metallicRoughness: Uint8Array; normal: Uint8Array } {
  const n = size * size;
  const luma = new Float32Array(n);
  const saturation = new Float32Array(n);
  for (let t = 0; t < n; t++) {
    const r = rgb[t * 3]! / 255;
    const g = rgb[t * 3 + 1]! / 255;
    const b = rgb[t * 3 + 2]! / 255;
    luma[t] = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const max = Math.max(r, g, b);
    saturation[t] = max > 0 ? (max - Math.min(r, g, b)) / max : 0;
  }
  const radius = Math.max(2, Math.round(size / 48));
  const mean = boxBlur(luma, size, radius);
  const squares = new Float32Array(n);
  for (let t = 0; t < n; t++) squares[t] = luma[t]! * luma[t]!;
  const meanSquare = boxBlur(squares, size, radius);
  const width = size * 2;
  const metallicRoughness = new Uint8Array(width * size * 4);
  const normal = new Uint8Array(width * size * 4);
  for (let y = 0; y < size; y++) {
    const up = (y > 0 ? y - 1 : y) * size;
    const down = (y < size - 1 ? y + 1 : y) * size;
    for (let x = 0; x < size; x++) {
      const t = y * size + x;
      const highlight = Math.min(1, Math.max(0, (luma[t]! - mean[t]!) * 5));
      const contrast = Math.min(1, Math.sqrt(Math.max(0, meanSquare[t]! - mean[t]! * mean[t]!)) * 6);
      const grey = Math.max(0, 1 - saturation[t]! * 4);
      const roughness = 0.85 - 0.5 * highlight;
      const metallic = 0.7 * grey * contrast;
      const dx =
        (luma[y * size + (x < size - 1 ? x + 1 : x)]! - luma[y * size + (x > 0 ? x - 1 : x)]!) * NORMAL_STRENGTH;
      const dy = (luma[down + x]! - luma[up + x]!) * NORMAL_STRENGTH;
      const len = Math.sqrt(dx * dx + dy * dy + 1);
      const o = (y * width + x) * 4;
      const b = o + size * 4;
      normal[o] = normal[b] = Math.round((0.5 - (0.5 * dx) / len) * 255);
      normal[o + 1] = normal[b + 1] = Math.round((0.5 + (0.5 * dy) / len) * 255);
      normal[o + 2] = normal[b + 2] = Math.round((0.5 + 0.5 / len) * 255);
      normal[o + 3] = normal[b + 3] = 255;
      metallicRoughness[o] = metallicRoughness[b] = 255;
      metallicRoughness[o + 1] = metallicRoughness[b + 1] = Math.round(roughness * 255);
      metallicRoughness[o + 2] = metallicRoughness[b + 2] = Math.round(metallic * 255);
      metallicRoughness[o + 3] = metallicRoughness[b + 3] = 255;
    }
  }
  return { metallicRoughness, normal };
}

/** Mean over a (2r+1)² square, clamped at the edges (running sums along rows, then columns). */
function boxBlur(values: Float32Array, size: number, r: number): Float32Array {
  const line = new Float32Array(size);
  const rows = new Float32Array(values.length);
  const out = new Float32Array(values.length);
  const scale = 1 / (2 * r + 1);
  const run = (read: (k: number) => number, write: (k: number, v: number) => void) => {
    for (let k = 0; k < size; k++) line[k] = read(k);
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += line[k < 0 ? 0 : k >= size ? size - 1 : k]!;
    for (let k = 0; k < size; k++) {
      write(k, sum * scale);
      sum += line[k + r + 1 < size ? k + r + 1 : size - 1]! - line[k - r > 0 ? k - r : 0]!;
    }
  };
  for (let y = 0; y < size; y++)
    run(
      (k) => values[y * size + k]!,
      (k, v) => (rows[y * size + k] = v),
    );
  for (let x = 0; x < size; x++)
    run(
      (k) => rows[k * size + x]!,
      (k, v) => (out[k * size + x] = v),
    );
  return out;
}
