// PNG writing (8-bit RGBA, filter 0) and the seeded pictures the engine serves as images and textures.
import { crc32, deflateSync } from 'node:zlib';
import { hslToRgb, seededRandom } from './seeded.ts';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TEXTURE_SIZE = 256;

export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`PNG size must be whole numbers above 0, got ${width}x${height}`);
  }
  if (rgba.length !== width * height * 4) {
    throw new RangeError(`expected ${width * height * 4} RGBA bytes, got ${rgba.length}`);
  }
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height); // each row: filter byte 0, then the pixels
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type RGBA, deflate, filter method 0, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** One PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Reads the size from the IHDR chunk; throws when the bytes do not start like a PNG. */
export function decodePngSize(buf: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE) || b.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG image');
  }
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

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
