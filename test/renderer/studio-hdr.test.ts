// The generated studio environment (renderer/environment/studio-hdr.ts): a valid Radiance .hdr with the
// size asked for, that decodes (with the tiny RGBE decoder below, RLE and flat scanlines) back to the
// radiance it was made from, neutral grey, with bright soft boxes and a sky brighter than the floor.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  directionOf,
  encodeHdr,
  SOFT_BOXES,
  studioHdr,
  studioPixels,
  studioRadiance,
  toRgbe,
  writeStudioHdr,
} from '../../renderer/environment/studio-hdr.ts';

interface Decoded {
  width: number;
  height: number;
  header: string[];
  rgb: Float32Array;
}

/** A small Radiance RGBE reader: header lines, the -Y h +X w size line, new-style RLE or flat scanlines. */
function decodeHdr(bytes: Buffer): Decoded {
  let pos = 0;
  const line = () => {
    const end = bytes.indexOf(0x0a, pos);
    if (end < 0) throw new Error('unterminated header');
    const text = bytes.subarray(pos, end).toString('latin1');
    pos = end + 1;
    return text;
  };
  const header: string[] = [];
  for (let l = line(); l !== ''; l = line()) header.push(l);
  const size = /^-Y (\d+) \+X (\d+)$/.exec(line());
  if (!size) throw new Error('no size line');
  const height = Number(size[1]);
  const width = Number(size[2]);
  const rgb = new Float32Array(width * height * 3);
  const scan = new Uint8Array(width * 4);
  for (let y = 0; y < height; y++) {
    if (bytes[pos] === 2 && bytes[pos + 1] === 2 && ((bytes[pos + 2]! << 8) | bytes[pos + 3]!) === width) {
      pos += 4;
      for (let c = 0; c < 4; c++) {
        let x = 0;
        while (x < width) {
          const count = bytes[pos++]!;
          if (count > 128) {
            const value = bytes[pos++]!;
            for (let k = 0; k < count - 128; k++) scan[c * width + x++] = value;
          } else {
            if (count === 0) throw new Error('zero-length literal');
            for (let k = 0; k < count; k++) scan[c * width + x++] = bytes[pos++]!;
          }
        }
        if (x !== width) throw new Error(`scanline ${y} channel ${c} overruns: ${x}`);
      }
    } else {
      for (let x = 0; x < width; x++) for (let c = 0; c < 4; c++) scan[c * width + x] = bytes[pos++]!;
    }
    for (let x = 0; x < width; x++) {
      const e = scan[3 * width + x]!;
      const f = e === 0 ? 0 : 2 ** (e - 128 - 8);
      for (let c = 0; c < 3; c++) rgb[(y * width + x) * 3 + c] = e === 0 ? 0 : (scan[c * width + x]! + 0.5) * f;
    }
  }
  if (pos !== bytes.length) throw new Error(`${bytes.length - pos} bytes after the last scanline`);
  return { width, height, header, rgb };
}

const at = (d: Decoded, x: number, y: number) =>
  Array.from(d.rgb.subarray((y * d.width + x) * 3, (y * d.width + x) * 3 + 3));
/** The pixel of a 512 × 256 panorama nearest a direction (degrees). */
const pixelAt = (d: Decoded, elevationDeg: number, azimuthDeg: number) => {
  const x = Math.min(d.width - 1, Math.floor((azimuthDeg / 360 + 0.5) * d.width));
  const y = Math.min(d.height - 1, Math.floor((0.5 - elevationDeg / 180) * d.height));
  return { x, y, rgb: at(d, x, y) };
};

describe('studio environment (.hdr)', () => {
  const bytes = studioHdr();
  const decoded = decodeHdr(bytes);

  it('has a valid Radiance header and the default size 512 × 256', () => {
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('#?');
    expect(decoded.header[0]).toBe('#?RADIANCE');
    expect(decoded.header).toContain('FORMAT=32-bit_rle_rgbe');
    expect([decoded.width, decoded.height]).toEqual([512, 256]);
    // Run-length encoded: much smaller than the 4 bytes per pixel of flat RGBE.
    expect(bytes.length).toBeLessThan(512 * 256 * 4 * 0.6);
  });

  it('is deterministic', () => {
    expect(studioHdr().equals(bytes)).toBe(true);
  });

  it('decodes back to the radiance it was made from (within RGBE precision), neutral grey', () => {
    for (const [x, y] of [
      [0, 0],
      [256, 10],
      [100, 128],
      [400, 200],
      [511, 255],
      [37, 61],
    ] as const) {
      const { elevation, azimuth } = directionOf(x, y, 512, 256);
      const expected = studioRadiance(elevation, azimuth);
      const [r, g, b] = at(decoded, x, y);
      expect(Math.abs(r! - expected) / expected, `pixel ${x},${y}`).toBeLessThan(1 / 128);
      expect(r).toBe(g);
      expect(g).toBe(b);
    }
  });

  it('has a brighter sky than floor, and soft boxes far brighter than both', () => {
    const zenith = pixelAt(decoded, 89, 180).rgb[0]!;
    const horizonUp = pixelAt(decoded, 10, -140).rgb[0]!;
    const floor = pixelAt(decoded, -60, 0).rgb[0]!;
    expect(zenith).toBeGreaterThan(0.5);
    expect(floor).toBeLessThan(horizonUp);
    expect(floor).toBeGreaterThan(0.05);
    for (const box of SOFT_BOXES) {
      const centre = pixelAt(decoded, box.elevation, box.azimuth).rgb[0]!;
      expect(centre, `soft box at ${box.elevation}°, ${box.azimuth}°`).toBeGreaterThan(zenith * 3);
    }
    // Average radiance below 1: lighting like the viewer's former hemispheric light, at unit exposure.
    const { rgb } = studioPixels();
    let sum = 0;
    let weight = 0;
    for (let y = 0; y < 256; y++) {
      const w = Math.cos(directionOf(0, y, 512, 256).elevation); // solid angle of the row
      for (let x = 0; x < 512; x++) sum += rgb[(y * 512 + x) * 3]! * w;
      weight += w * 512;
    }
    expect(sum / weight).toBeGreaterThan(0.3);
    expect(sum / weight).toBeLessThan(1.5);
  });

  it('tints and resizes on request', () => {
    const small = decodeHdr(studioHdr({ width: 64, tint: [1, 0.5, 0.25] }));
    expect([small.width, small.height]).toEqual([64, 32]);
    const [r, g, b] = at(small, 10, 5);
    expect(g! / r!).toBeCloseTo(0.5, 1);
    expect(b! / r!).toBeCloseTo(0.25, 1);
    expect(() => studioHdr({ width: 15 })).toThrow(/width/);
  });

  it('encodes RGBE like frexp, and any image round-trips through RLE', () => {
    expect(toRgbe(0, 0, 0)).toEqual([0, 0, 0, 0]);
    expect(toRgbe(1, 0.5, 0.25)).toEqual([128, 64, 32, 129]);
    expect(toRgbe(0.75, 0, 0)).toEqual([192, 0, 0, 128]);
    // Noise (literals) and flat stretches (runs), including a run longer than 127.
    const w = 300;
    const h = 3;
    const rgb = new Float32Array(w * h * 3);
    let seed = 7;
    for (let i = 0; i < rgb.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      rgb[i] = i % (w * 3) < 400 ? 0.5 : (seed / 2 ** 31) * 4;
    }
    const back = decodeHdr(encodeHdr(w, h, rgb));
    // The three channels share an exponent: each is within 1/128 of the pixel's brightest channel.
    for (let p = 0; p < w * h; p++) {
      const max = Math.max(rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!);
      for (let c = 0; c < 3; c++)
        expect(Math.abs(back.rgb[p * 3 + c]! - rgb[p * 3 + c]!)).toBeLessThanOrEqual(max / 128);
    }
  });

  it('writes the file (creating its folder)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-hdr-'));
    try {
      const path = join(dir, 'environment', 'studio.hdr');
      await writeStudioHdr(path);
      expect(readFileSync(path).equals(bytes)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
