// Small raster helpers of the picture pipeline: a mask type, box downscaling and bilinear sampling.
import type { RgbaImage } from '../../images/decode-image.ts';

/** One byte per pixel, 1 inside the subject and 0 outside, rows top to bottom. */
export interface Mask {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A grid of numbers over the pixels of a picture (pixel centres at x + 0.5, y + 0.5). */
export interface Field {
  width: number;
  height: number;
  data: Float32Array;
}

/** The picture shrunk by a whole factor (box filter, colours weighted by alpha) so that neither side exceeds `maxSide`. */
export function downscale(image: RgbaImage, maxSide: number): { image: RgbaImage; factor: number } {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / maxSide));
  if (factor === 1) return { image, factor };
  const width = Math.ceil(image.width / factor);
  const height = Math.ceil(image.height / factor);
  const data = new Uint8Array(width * height * 4);
  const src = image.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let sy = y * factor; sy < Math.min(image.height, (y + 1) * factor); sy++) {
        for (let sx = x * factor; sx < Math.min(image.width, (x + 1) * factor); sx++) {
          const i = (sy * image.width + sx) * 4;
          const w = src[i + 3]! + 1; // alpha-weighted, never zero so fully transparent blocks keep a colour
          r += src[i]! * w;
          g += src[i + 1]! * w;
          b += src[i + 2]! * w;
          a += src[i + 3]!;
          n += w;
        }
      }
      const count = Math.min(factor, image.width - x * factor) * Math.min(factor, image.height - y * factor);
      const o = (y * width + x) * 4;
      data[o] = Math.round(r / n);
      data[o + 1] = Math.round(g / n);
      data[o + 2] = Math.round(b / n);
      data[o + 3] = Math.round(a / count);
    }
  }
  return { image: { width, height, data }, factor };
}

/** The four pixels around (x, y) in pixel units (pixel centres at +0.5), clamped at the edges, and the weights between them. */
export interface BilinearCell {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  tx: number;
  ty: number;
}

/** The cell of a `width` × `height` grid that bilinear sampling at (x, y) reads. */
export function bilinearCell(width: number, height: number, x: number, y: number): BilinearCell {
  const fx = Math.min(width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  return { x0, y0, x1: Math.min(width - 1, x0 + 1), y1: Math.min(height - 1, y0 + 1), tx: fx - x0, ty: fy - y0 };
}

/** The field's value at (x, y) in pixel units (pixel centres at +0.5), bilinear, clamped at the edges. */
export function sampleField(field: Field, x: number, y: number): number {
  const { x0, y0, x1, y1, tx, ty } = bilinearCell(field.width, field.height, x, y);
  const d = field.data;
  const w = field.width;
  const top = d[y0 * w + x0]! * (1 - tx) + d[y0 * w + x1]! * tx;
  const bottom = d[y1 * w + x0]! * (1 - tx) + d[y1 * w + x1]! * tx;
  return top * (1 - ty) + bottom * ty;
}

/** The colour at (x, y) in pixel units, bilinear, clamped at the edges; written into `out` (RGBA, 0-255). */
export function sampleRgba(image: RgbaImage, x: number, y: number, out: Float32Array): Float32Array {
  const { x0, y0, x1, y1, tx, ty } = bilinearCell(image.width, image.height, x, y);
  const d = image.data;
  const i00 = (y0 * image.width + x0) * 4;
  const i10 = (y0 * image.width + x1) * 4;
  const i01 = (y1 * image.width + x0) * 4;
  const i11 = (y1 * image.width + x1) * 4;
  for (let k = 0; k < 4; k++) {
    const top = d[i00 + k]! * (1 - tx) + d[i10 + k]! * tx;
    const bottom = d[i01 + k]! * (1 - tx) + d[i11 + k]! * tx;
    out[k] = top * (1 - ty) + bottom * ty;
  }
  return out;
}
