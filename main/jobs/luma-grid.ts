// A picture reduced to a small grid of brightness values (0–255): what the image decoders produce and
// what the perceptual comparison reads. Pixels are summed into at most MAX_CELLS × MAX_CELLS cells.
import type { RgbaImage } from '../images/decode-image.ts';

export const MAX_CELLS = 64;

export class LumaGrid {
  /** Size of the picture the values were added from, in pixels. */
  readonly sourceWidth: number;
  readonly sourceHeight: number;
  readonly width: number;
  readonly height: number;
  readonly #sum: Float64Array;
  readonly #count: Uint32Array;
  readonly #column: Uint16Array;
  readonly #row: Uint16Array;

  constructor(sourceWidth: number, sourceHeight: number) {
    this.sourceWidth = sourceWidth;
    this.sourceHeight = sourceHeight;
    this.width = Math.min(sourceWidth, MAX_CELLS);
    this.height = Math.min(sourceHeight, MAX_CELLS);
    this.#sum = new Float64Array(this.width * this.height);
    this.#count = new Uint32Array(this.width * this.height);
    this.#column = Uint16Array.from({ length: sourceWidth }, (_, x) => Math.floor((x * this.width) / sourceWidth));
    this.#row = Uint16Array.from({ length: sourceHeight }, (_, y) => Math.floor((y * this.height) / sourceHeight));
  }

  add(x: number, y: number, luma: number): void {
    const cell = this.#row[y]! * this.width + this.#column[x]!;
    this.#sum[cell]! += luma;
    this.#count[cell]! += 1;
  }

  /** The mean brightness of each cell, row by row. */
  values(): Float64Array {
    return this.#sum.map((sum, i) => (this.#count[i] ? sum / this.#count[i]! : 0));
  }
}

/** Rec. 601 luma, the brightness JPEG stores as Y. */
export const luma = (r: number, g: number, b: number): number => 0.299 * r + 0.587 * g + 0.114 * b;

/** A decoded picture as brightness grids: one for an opaque picture; over white, then over black, when some pixels are transparent. */
export interface DecodedLuma {
  grids: LumaGrid[];
  width: number;
  height: number;
}

/**
 * The brightness of an RGBA picture. Transparent pixels are laid over white and, separately, over black,
 * since a service that re-encodes to an opaque format may flatten either way.
 */
export function lumaOf(image: RgbaImage): DecodedLuma {
  const { width, height, data } = image;
  let transparent = false;
  for (let i = 3; i < data.length; i += 4) if (data[i]! < 255) (transparent = true), (i = data.length);
  const backgrounds = transparent ? [255, 0] : [0];
  const grids = backgrounds.map((background) => {
    const grid = new LumaGrid(width, height);
    for (let y = 0, i = 0; y < height; y++) {
      for (let x = 0; x < width; x++, i += 4) {
        const a = data[i + 3]! / 255;
        const over = (c: number) => c * a + background * (1 - a);
        grid.add(x, y, luma(over(data[i]!), over(data[i + 1]!), over(data[i + 2]!)));
      }
    }
    return grid;
  });
  return { grids, width, height };
}
