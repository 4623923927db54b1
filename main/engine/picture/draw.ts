// A small 2D rasteriser for the text-to-image pictures: RGB in [0, 1], filled shapes with a soft edge,
// vertical gradients for sky and ground, a soft shadow and a light tint. Coordinates are in pixels.
import type { Rgb } from './words.ts';

export class Canvas {
  readonly width: number;
  readonly height: number;
  readonly rgb: Float32Array;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.rgb = new Float32Array(width * height * 3);
  }

  /** Blends `colour` into one pixel with weight `alpha`. */
  blend(x: number, y: number, colour: Rgb, alpha: number): void {
    if (alpha <= 0 || x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const a = Math.min(1, alpha);
    const i = (y * this.width + x) * 3;
    for (let c = 0; c < 3; c++) this.rgb[i + c] = this.rgb[i + c]! * (1 - a) + colour[c]! * a;
  }

  /** Rows y0..y1 filled with a gradient from `top` to `bottom`. */
  verticalGradient(y0: number, y1: number, top: Rgb, bottom: Rgb): void {
    const from = Math.max(0, Math.floor(y0));
    const to = Math.min(this.height, Math.ceil(y1));
    for (let y = from; y < to; y++) {
      const t = (y - y0) / Math.max(1, y1 - y0);
      const colour = mix(top, bottom, t);
      for (let x = 0; x < this.width; x++) this.blend(x, y, colour, 1);
    }
  }

  /**
   * Fills the region where `inside(x, y)` (a signed distance in pixels, negative inside) is below 0, with a one-pixel
   * soft edge; `shade(x, y)` gives each pixel's colour. Only the box [x0, x1] × [y0, y1] is visited.
   */
  fill(
    box: [number, number, number, number],
    distance: (x: number, y: number) => number,
    shade: (x: number, y: number) => Rgb,
  ): void {
    const [x0, y0, x1, y1] = box;
    for (let y = Math.max(0, Math.floor(y0) - 1); y <= Math.min(this.height - 1, Math.ceil(y1) + 1); y++) {
      for (let x = Math.max(0, Math.floor(x0) - 1); x <= Math.min(this.width - 1, Math.ceil(x1) + 1); x++) {
        const d = distance(x + 0.5, y + 0.5);
        if (d < 0.5) this.blend(x, y, shade(x + 0.5, y + 0.5), Math.min(1, 0.5 - d));
      }
    }
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, shade: (x: number, y: number) => Rgb): void {
    const r = Math.min(rx, ry);
    this.fill(
      [cx - rx, cy - ry, cx + rx, cy + ry],
      (x, y) => (Math.hypot((x - cx) / rx, (y - cy) / ry) - 1) * r,
      shade,
    );
  }

  rect(x0: number, y0: number, x1: number, y1: number, shade: (x: number, y: number) => Rgb): void {
    this.fill([x0, y0, x1, y1], (x, y) => Math.max(x0 - x, x - x1, y0 - y, y - y1), shade);
  }

  /** A convex or concave polygon (even-odd), edges softened by the distance to the nearest edge. */
  polygon(points: [number, number][], shade: (x: number, y: number) => Rgb): void {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    this.fill(
      [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
      (x, y) => {
        let inside = false;
        let nearest = Infinity;
        for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
          const [xi, yi] = points[i]!;
          const [xj, yj] = points[j]!;
          if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
          nearest = Math.min(nearest, segmentDistance(x, y, xi, yi, xj, yj));
        }
        return inside ? -nearest : nearest;
      },
      shade,
    );
  }

  /** A soft elliptical shadow: darkens by up to `strength`, fading to nothing at the rim. */
  shadow(cx: number, cy: number, rx: number, ry: number, strength: number): void {
    for (let y = Math.max(0, Math.floor(cy - ry)); y <= Math.min(this.height - 1, Math.ceil(cy + ry)); y++) {
      for (let x = Math.max(0, Math.floor(cx - rx)); x <= Math.min(this.width - 1, Math.ceil(cx + rx)); x++) {
        const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
        if (d < 1) this.blend(x, y, [0, 0, 0], strength * (1 - d * d));
      }
    }
  }

  /** Multiplies every pixel by `tint` (the colour of the light). */
  tint(tint: Rgb, amount: number): void {
    for (let i = 0; i < this.rgb.length; i++) this.rgb[i] = this.rgb[i]! * (1 - amount + amount * tint[i % 3]!);
  }

  /** 8-bit RGBA, opaque. */
  toRgba(): Uint8Array {
    const out = new Uint8Array(this.width * this.height * 4);
    for (let p = 0; p < this.width * this.height; p++) {
      for (let c = 0; c < 3; c++) out[p * 4 + c] = Math.round(255 * Math.min(1, Math.max(0, this.rgb[p * 3 + c]!)));
      out[p * 4 + 3] = 255;
    }
    return out;
  }
}

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scale(c: Rgb, k: number): Rgb {
  return [c[0] * k, c[1] * k, c[2] * k];
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}
