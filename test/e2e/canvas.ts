// Reading the viewer's WebGL canvas in e2e tests: the page draws it scaled down into a 2D canvas and hands
// back its RGB values; what a test measures on them (coverage, colours, brightness, difference) runs here.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: {
  querySelector(s: string): { width: number; height: number } | null;
  createElement(tag: 'canvas'): {
    width: number;
    height: number;
    getContext(kind: '2d'): {
      drawImage(c: unknown, x: number, y: number, w: number, h: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
    };
  };
};

/** The canvas `selector` scaled to `width` pixels wide (its aspect kept), as R, G, B values row by row. */
export async function canvasRgb(page: Page, selector = '.viewer-canvas', width = 160): Promise<number[]> {
  return page.evaluate(
    ([sel, w]) => {
      const src = document.querySelector(sel)!;
      const ht = Math.max(1, Math.round((src.height / src.width) * w));
      const c = document.createElement('canvas');
      c.width = w;
      c.height = ht;
      const ctx = c.getContext('2d');
      ctx.drawImage(src, 0, 0, w, ht);
      const d = ctx.getImageData(0, 0, w, ht).data;
      const rgb: number[] = [];
      for (let i = 0; i < d.length; i += 4) rgb.push(d[i]!, d[i + 1]!, d[i + 2]!);
      return rgb;
    },
    [selector, width] as const,
  );
}

export interface Measure {
  /** Share of the pixels unlike the top-left one (the background): how much the model covers. */
  covered: number;
  /** How many colours (5 bits a channel) there are. */
  colours: number;
  /** The mean brightness of a channel (0…255). */
  mean: number;
}

export function measure(rgb: number[]): Measure {
  let covered = 0;
  let sum = 0;
  const colours = new Set<number>();
  const [r0, g0, b0] = [rgb[0]!, rgb[1]!, rgb[2]!];
  for (let i = 0; i < rgb.length; i += 3) {
    const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
    colours.add((r >> 3) * 1024 + (g >> 3) * 32 + (b >> 3));
    if (Math.abs(r - r0) + Math.abs(g - g0) + Math.abs(b - b0) > 24) covered++;
    sum += r + g + b;
  }
  return { covered: covered / (rgb.length / 3), colours: colours.size, mean: sum / rgb.length };
}

/** Measures the canvas `selector` now. */
export async function canvasPixels(page: Page, selector = '.viewer-canvas', width = 160): Promise<Measure> {
  return measure(await canvasRgb(page, selector, width));
}

/** A coarse fingerprint of a picture: the red level (4 bits) of every 16th pixel, to tell two views apart. */
export function fingerprint(rgb: number[]): string {
  let print = '';
  for (let i = 0; i < rgb.length; i += 48) print += (rgb[i]! >> 4).toString(16);
  return print;
}

/** The picture as grey levels, a pixel each. */
export function grey(rgb: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < rgb.length; i += 3) out.push(Math.round((rgb[i]! + rgb[i + 1]! + rgb[i + 2]!) / 3));
  return out;
}

/** Mean absolute difference per channel (0…255) between two pictures of the same size. */
export function difference(a: number[], b: number[]): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}
