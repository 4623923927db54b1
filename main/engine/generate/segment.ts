// Finding the subject of a picture: its alpha channel when it has one, else everything that is not the
// background, found by flood-filling from the border with the border's colour (within a tolerance that follows
// soft gradients and shadows). Then the largest connected region is kept, with its holes: background enclosed by
// the subject (between chair slats, under an arm) stays a hole, and specks are filled or dropped.
import type { RgbaImage } from '../../images/decode-image.ts';
import type { Mask } from './raster.ts';

export type SegmentMethod = 'alpha' | 'border' | 'whole';

export interface Segmentation {
  mask: Mask;
  /** How the subject was told from the background: transparency, the border colour, or (nothing found) the whole picture. */
  method: SegmentMethod;
  /** The subject's bounding box in pixels: [x0, y0) to [x1, y1). */
  box: { x0: number; y0: number; x1: number; y1: number };
  /** Pixels in the subject. */
  area: number;
}

/** A picture is taken as cut out when at least this share of its pixels is transparent. */
const MIN_TRANSPARENT_SHARE = 0.01;
/** A subject smaller than this share of the picture is not one: the whole picture is used. */
const MIN_SUBJECT_SHARE = 0.002;
/** Enclosed background regions at least this share of the subject stay holes; smaller ones are filled. */
const MIN_HOLE_SHARE = 0.001;

export function segmentSubject(image: RgbaImage): Segmentation {
  const { width, height, data } = image;
  const n = width * height;
  let transparent = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i]! < 128) transparent++;
  let fg: Uint8Array;
  let method: SegmentMethod;
  if (transparent >= MIN_TRANSPARENT_SHARE * n && transparent < n) {
    fg = new Uint8Array(n);
    for (let i = 0; i < n; i++) fg[i] = data[i * 4 + 3]! >= 128 ? 1 : 0;
    method = 'alpha';
  } else {
    fg = foregroundFromBorder(image);
    method = 'border';
  }
  let mask = largestComponent(width, height, fg);
  let area = mask.reduce((sum, v) => sum + v, 0);
  if (area < MIN_SUBJECT_SHARE * n) {
    mask = new Uint8Array(n).fill(1);
    area = n;
    method = 'whole';
  } else {
    area += fillSmallHoles(width, height, mask, Math.max(4, MIN_HOLE_SHARE * area));
  }
  return { mask: { width, height, data: mask }, method, box: boxOf(width, height, mask), area };
}

// ---- background from the border -------------------------------------------------------------------

/** Largest per-channel difference between the colour at byte `i` of `d` and the colour at byte `j` of `e`. */
const diff = (d: ArrayLike<number>, i: number, e: ArrayLike<number>, j: number) =>
  Math.max(Math.abs(d[i]! - e[j]!), Math.abs(d[i + 1]! - e[j + 1]!), Math.abs(d[i + 2]! - e[j + 2]!));

/**
 * Everything that is not background. The background expected at each pixel is the border's colour carried
 * inwards (a Coons patch of the four border lines, each smoothed by a running median, so a vertical gradient
 * or a lighter floor is expected where it is). A pixel is background when it is close to that colour and
 * reached from the border through steps of small colour change; enclosed regions of that colour are background too.
 */
function foregroundFromBorder(image: RgbaImage): Uint8Array {
  const { width, height } = image;
  const n = width * height;
  // The expected backdrop comes from blurred colours (JPEG noise); each pixel is judged on its own colour, so the
  // outline does not grow by the blur's pixel.
  const expected = borderPatch(width, height, blur3(image));
  const data = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    data[i * 3] = image.data[i * 4]!;
    data[i * 3 + 1] = image.data[i * 4 + 1]!;
    data[i * 3 + 2] = image.data[i * 4 + 2]!;
  }

  // How far the border itself strays from its smoothed colour: the noise the tolerances allow for.
  const strays: number[] = [];
  for (let x = 0; x < width; x++)
    strays.push(
      diff(data, x * 3, expected, x * 3),
      diff(data, ((height - 1) * width + x) * 3, expected, ((height - 1) * width + x) * 3),
    );
  for (let y = 0; y < height; y++)
    strays.push(
      diff(data, y * width * 3, expected, y * width * 3),
      diff(data, (y * width + width - 1) * 3, expected, (y * width + width - 1) * 3),
    );
  const noise = median(strays);
  const global = Math.min(60, 18 + 4 * noise);
  const step = Math.min(16, 5 + 2 * noise);
  // A backdrop is smooth; fur, cloth and print are not. A textured pixel is taken for backdrop only when it is
  // the backdrop's colour within the noise (as the pixels right beside the subject's edge are).
  const texture = localSpread(image);
  const smooth = Math.max(4, 2 * noise);
  const tight = 2 * noise + 4;

  const bg = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  const seed = (i: number) => {
    if (bg[i] === 0 && diff(data, i * 3, expected, i * 3) <= global) {
      bg[i] = 1;
      queue[tail++] = i;
    }
  };
  for (let x = 0; x < width; x++) {
    seed(x);
    seed((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    seed(y * width);
    seed(y * width + width - 1);
  }
  while (head < tail) {
    const p = queue[head++]!;
    const x = p % width;
    for (let k = 0; k < 4; k++) {
      const q =
        k === 0 ? (x > 0 ? p - 1 : -1) : k === 1 ? (x < width - 1 ? p + 1 : -1) : k === 2 ? p - width : p + width;
      if (q < 0 || q >= n || bg[q] === 1) continue;
      if (diff(data, q * 3, data, p * 3) > step) continue;
      const off = diff(data, q * 3, expected, q * 3);
      if (off > global && !isShadow(data, expected, q * 3)) continue;
      if (texture[q]! > smooth && off > tight) continue;
      bg[q] = 1;
      queue[tail++] = q;
    }
  }

  // Enclosed regions of the background's own colour (seen through the subject) are background too, when large
  // enough and as even as the border is (a white shirt in front of a white wall has folds, the wall does not).
  const strict = global * 0.5;
  const candidate = new Uint8Array(n);
  for (let i = 0; i < n; i++) candidate[i] = bg[i] === 0 && diff(data, i * 3, expected, i * 3) <= strict ? 1 : 0;
  const minHole = Math.max(16, 0.001 * n);
  forEachComponent(width, height, candidate, 4, (pixels) => {
    if (pixels.length < minHole) return;
    let total = 0;
    for (const i of pixels) total += diff(data, i * 3, expected, i * 3);
    if (total / pixels.length <= 2 * noise + 4) for (const i of pixels) bg[i] = 1;
  });

  const fg = new Uint8Array(n);
  for (let i = 0; i < n; i++) fg[i] = 1 - bg[i]!;
  return fg;
}

/**
 * A shadow cast on the background: the expected colour darkened (to 45%-100% of it) with its hue kept, so a soft
 * floor shadow is not taken for part of the subject while a black leg (much darker) still is.
 */
function isShadow(rgb: Float32Array, expected: Float32Array, i: number): boolean {
  let low = Infinity;
  let high = -Infinity;
  for (let k = 0; k < 3; k++) {
    const ratio = (rgb[i + k]! + 4) / (expected[i + k]! + 4);
    low = Math.min(low, ratio);
    high = Math.max(high, ratio);
  }
  return low >= 0.45 && high <= 1.02 && high - low <= 0.08;
}

/** The spread (standard deviation) of brightness over each pixel's 3×3 neighbourhood. */
function localSpread(image: RgbaImage): Float32Array {
  const { width, height, data } = image;
  const values = new Float64Array(width * height * 2);
  for (let p = 0; p < width * height; p++) {
    const l = 0.299 * data[p * 4]! + 0.587 * data[p * 4 + 1]! + 0.114 * data[p * 4 + 2]!;
    values[p * 2] = l;
    values[p * 2 + 1] = l * l;
  }
  const means = boxMean3(values, width, height, 2);
  const out = new Float32Array(width * height);
  for (let p = 0; p < width * height; p++) {
    const mean = means[p * 2]!;
    out[p] = Math.sqrt(Math.max(0, means[p * 2 + 1]! - mean * mean));
  }
  return out;
}

/** RGB with a 3×3 box blur (JPEG noise and single-pixel texture do not break the flood fill). */
function blur3(image: RgbaImage): Float32Array {
  const { width, height, data } = image;
  const rgb = new Float64Array(width * height * 3);
  for (let p = 0; p < width * height; p++) for (let k = 0; k < 3; k++) rgb[p * 3 + k] = data[p * 4 + k]!;
  return Float32Array.from(boxMean3(rgb, width, height, 3));
}

/** Each pixel's mean of its `channels` values over its 3×3 neighbourhood (clamped at the edges). */
function boxMean3(values: Float64Array, width: number, height: number, channels: number): Float64Array {
  const out = new Float64Array(values.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * channels;
      let count = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(height - 1, y + 1); yy++) {
        for (let xx = Math.max(0, x - 1); xx <= Math.min(width - 1, x + 1); xx++) {
          for (let c = 0; c < channels; c++) out[o + c]! += values[(yy * width + xx) * channels + c]!;
          count++;
        }
      }
      for (let c = 0; c < channels; c++) out[o + c]! /= count;
    }
  }
  return out;
}

/** The border's colours carried inwards: a Coons patch of the four border lines, each smoothed by a running median. */
function borderPatch(width: number, height: number, rgb: Float32Array): Float32Array {
  const line = (count: number, at: (t: number) => number) => {
    const window = Math.max(1, Math.round(count / 16));
    const out = new Float32Array(count * 3);
    for (let k = 0; k < 3; k++) {
      const raw = Array.from({ length: count }, (_, t) => rgb[at(t) * 3 + k]!);
      for (let t = 0; t < count; t++)
        out[t * 3 + k] = median(raw.slice(Math.max(0, t - window), Math.min(count, t + window + 1)));
    }
    return out;
  };
  const top = line(width, (x) => x);
  const bottom = line(width, (x) => (height - 1) * width + x);
  const left = line(height, (y) => y * width);
  const right = line(height, (y) => y * width + width - 1);
  const out = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const v = height > 1 ? y / (height - 1) : 0;
    for (let x = 0; x < width; x++) {
      const u = width > 1 ? x / (width - 1) : 0;
      for (let k = 0; k < 3; k++) {
        const corners =
          (1 - u) * (1 - v) * top[k]! +
          u * (1 - v) * top[(width - 1) * 3 + k]! +
          (1 - u) * v * bottom[k]! +
          u * v * bottom[(width - 1) * 3 + k]!;
        out[(y * width + x) * 3 + k] =
          (1 - v) * top[x * 3 + k]! +
          v * bottom[x * 3 + k]! +
          (1 - u) * left[y * 3 + k]! +
          u * right[y * 3 + k]! -
          corners;
      }
    }
  }
  return out;
}

function median(values: number[]): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

// ---- components ----------------------------------------------------------------------------------------

/** Calls `each` with the pixels of every connected region of 1s (4- or 8-connected) and whether it touches the border. */
function forEachComponent(
  width: number,
  height: number,
  on: Uint8Array,
  connectivity: 4 | 8,
  each: (pixels: Int32Array, touchesBorder: boolean) => void,
): void {
  const n = width * height;
  const seen = new Uint8Array(n);
  const stack = new Int32Array(n);
  const pixels = new Int32Array(n);
  const dx = connectivity === 4 ? [-1, 1, 0, 0] : [-1, 0, 1, -1, 1, -1, 0, 1];
  const dy = connectivity === 4 ? [0, 0, -1, 1] : [-1, -1, -1, 0, 0, 1, 1, 1];
  for (let start = 0; start < n; start++) {
    if (on[start] !== 1 || seen[start] === 1) continue;
    let top = 0;
    let count = 0;
    let touches = false;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const p = stack[--top]!;
      pixels[count++] = p;
      const x = p % width;
      const y = (p - x) / width;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touches = true;
      for (let k = 0; k < dx.length; k++) {
        const nx = x + dx[k]!;
        const ny = y + dy[k]!;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const q = ny * width + nx;
        if (on[q] === 1 && seen[q] === 0) {
          seen[q] = 1;
          stack[top++] = q;
        }
      }
    }
    each(pixels.subarray(0, count), touches);
  }
}

/** The largest 8-connected region of the foreground, as a new mask. */
function largestComponent(width: number, height: number, fg: Uint8Array): Uint8Array {
  let best: Int32Array | undefined;
  forEachComponent(width, height, fg, 8, (pixels) => {
    if (best === undefined || pixels.length > best.length) best = pixels.slice();
  });
  const out = new Uint8Array(width * height);
  if (best !== undefined) for (const i of best) out[i] = 1;
  return out;
}

/** Fills the enclosed background regions smaller than `minArea` pixels; returns how many pixels it filled. */
function fillSmallHoles(width: number, height: number, mask: Uint8Array, minArea: number): number {
  const bg = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) bg[i] = 1 - mask[i]!;
  let filled = 0;
  forEachComponent(width, height, bg, 4, (pixels, touchesBorder) => {
    if (touchesBorder || pixels.length >= minArea) return;
    for (const i of pixels) mask[i] = 1;
    filled += pixels.length;
  });
  return filled;
}

function boxOf(width: number, height: number, mask: Uint8Array): Segmentation['box'] {
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x] !== 1) continue;
      if (x < x0) x0 = x;
      if (x >= x1) x1 = x + 1;
      if (y < y0) y0 = y;
      if (y >= y1) y1 = y + 1;
    }
  }
  return { x0, y0, x1, y1 };
}
