// The seeded pictures the engine serves as images and textures (a lit sphere on a gradient), as PNG.
import { encodePng } from '../../formats/png.ts';
import { hslToRgb, seededRandom } from './seeded.ts';

const TEXTURE_SIZE = 256;

/**
 * A deterministic picture for a seed: a two-tone gradient backdrop, a soft ground shadow and a lit sphere
 * crossed by a band; hues, light direction and band angle come from the seed.
 */
export function renderPreviewImage(seed: string, width: number, height: number): Buffer {
  const random = seededRandom(seed);
  const hue = random();
  const top = hslToRgb((hue + 0.5) % 1, 0.35, 0.85);
  const bottom = hslToRgb((hue + 0.4 + 0.2 * random()) % 1, 0.3, 0.3);
  const body = hslToRgb(hue, 0.6, 0.5);
  const band = hslToRgb((hue + 0.15 + 0.2 * random()) % 1, 0.7, 0.6);
  const lightAngle = 2 * Math.PI * random();
  const light = normalize3(0.6 * Math.cos(lightAngle), 0.6 * Math.sin(lightAngle), 0.8);
  const bandAngle = Math.PI * random();
  const bandWidth = 0.1 + 0.2 * random();

  const radius = 0.3 * Math.min(width, height);
  const cx = width / 2;
  const cy = height * 0.45;
  const rgba = new Uint8Array(width * height * 4);
  const color: Rgb = [0, 0, 0];
  for (let y = 0; y < height; y++) {
    const v = y / Math.max(1, height - 1);
    for (let x = 0; x < width; x++) {
      // shadow: a soft ellipse under the sphere, darkening the gradient
      const sx = (x + 0.5 - cx) / (radius * 1.1);
      const sy = (y + 0.5 - (cy + radius * 1.05)) / (radius * 0.25);
      const shade = 1 - 0.5 * Math.max(0, 1 - Math.hypot(sx, sy));
      for (let k = 0; k < 3; k++) color[k] = (top[k]! + (bottom[k]! - top[k]!) * v) * shade;
      // sphere, with one pixel of anti-aliasing at the rim
      const dx = (x + 0.5 - cx) / radius;
      const dy = (y + 0.5 - cy) / radius;
      const dist = Math.hypot(dx, dy);
      const coverage = Math.min(1, Math.max(0, (1 - dist) * radius + 0.5));
      if (coverage > 0) {
        const nz = Math.sqrt(Math.max(0, 1 - dist * dist));
        const lambert = Math.max(0, dx * light[0] - dy * light[1] + nz * light[2]);
        const specular = 0.6 * Math.max(0, 2 * lambert * nz - light[2]) ** 24;
        const paint = Math.abs(dx * Math.cos(bandAngle) + dy * Math.sin(bandAngle)) < bandWidth ? band : body;
        for (let k = 0; k < 3; k++) {
          const lit = paint[k]! * (0.25 + 0.75 * lambert) + specular;
          color[k] = color[k]! + (lit - color[k]!) * coverage;
        }
      }
      const at = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) rgba[at + k] = Math.round(255 * Math.min(1, Math.max(0, color[k]!)));
      rgba[at + 3] = 255;
    }
  }
  return encodePng(width, height, rgba);
}

/** The base-colour texture of a model, as embedded in its GLB and shipped next to its OBJ. */
export function renderTexture(seed: string): Buffer {
  return renderPreviewImage(`${seed}:texture`, TEXTURE_SIZE, TEXTURE_SIZE);
}

type Rgb = [number, number, number];
const normalize3 = (x: number, y: number, z: number): Rgb => {
  const len = Math.hypot(x, y, z);
  return [x / len, y / len, z / len];
};
