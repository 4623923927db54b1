// Euclidean distance transforms of a mask (Felzenszwalb and Huttenlocher's linear-time method) and the
// signed distance to the outline: positive inside the subject, negative outside, zero on the outline.
import type { Field, Mask } from './raster.ts';

const FAR = 1e20;

/** Distance (pixels, centre to centre) from every pixel to the nearest pixel where `target(i)` holds; FAR² when none. */
export function distanceTo(width: number, height: number, target: (i: number) => boolean): Float32Array {
  const f = new Float64Array(Math.max(width, height));
  const d = new Float64Array(Math.max(width, height));
  const v = new Int32Array(Math.max(width, height));
  const z = new Float64Array(Math.max(width, height) + 1);
  const grid = new Float64Array(width * height);
  for (let i = 0; i < grid.length; i++) grid[i] = target(i) ? 0 : FAR;
  // columns, then rows
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) f[y] = grid[y * width + x]!;
    transform1d(f, height, d, v, z);
    for (let y = 0; y < height; y++) grid[y * width + x] = d[y]!;
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) f[x] = grid[y * width + x]!;
    transform1d(f, width, d, v, z);
    for (let x = 0; x < width; x++) grid[y * width + x] = d[x]!;
  }
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = Math.sqrt(grid[i]!);
  return out;
}

/** Squared distance transform of the sampled function f[0..n) (lower envelope of parabolas). */
function transform1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    let p = v[k]!;
    let s = (f[q]! + q * q - (f[p]! + p * p)) / (2 * q - 2 * p);
    while (s <= z[k]!) {
      k--;
      p = v[k]!;
      s = (f[q]! + q * q - (f[p]! + p * p)) / (2 * q - 2 * p);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1]! < q) k++;
    const p = v[k]!;
    d[q] = (q - p) * (q - p) + f[p]!;
  }
}

/**
 * The signed distance to the subject's outline, in pixels: inside, the distance to the nearest outside pixel
 * less half a pixel; outside, minus the distance to the nearest inside pixel less half a pixel. The outline
 * (value 0) runs between inside and outside pixel centres.
 */
export function signedDistance(mask: Mask): Field {
  const { width, height, data } = mask;
  // Outside the picture counts as outside the subject: pad by one pixel.
  const pw = width + 2;
  const ph = height + 2;
  const padded = new Uint8Array(pw * ph);
  for (let y = 0; y < height; y++) padded.set(data.subarray(y * width, (y + 1) * width), (y + 1) * pw + 1);
  const toOutside = distanceTo(pw, ph, (i) => padded[i] === 0);
  const toInside = distanceTo(pw, ph, (i) => padded[i] === 1);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y + 1) * pw + x + 1;
      out[y * width + x] = data[y * width + x] === 1 ? toOutside[i]! - 0.5 : -(Math.min(toInside[i]!, 1e6) - 0.5);
    }
  }
  return { width, height, data: out };
}
