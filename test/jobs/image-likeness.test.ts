// The picture comparison behind the reconciliation of lost creates: pictures (PNG, JPEG, GIF) down to
// brightness, exact and perceptual matches, and the cases it must not decide.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PNG_SIGNATURE, pngChunk } from '../../main/formats/png.ts';
import { recompressUpload } from '../../main/engine/recompress-upload.ts';
import { compareImages, fingerprint } from '../../main/jobs/image-likeness.ts';
import { decodeImage } from '../../main/images/decode-image.ts';
import { lumaOf } from '../../main/jobs/luma-grid.ts';
import { realFixture } from '../fixtures.ts';

const image = (...parts: string[]) => readFileSync(realFixture('images', ...parts));
const reencoded = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));

describe('perceptual comparison of real pictures', () => {
  const robot = fingerprint(image('robot.png'));

  it.each(['robot-progressive.jpg', 'robot-444-restart.jpg', 'robot-half-grey.jpg'])(
    'robot.png and its JPEG re-encoding %s are the same picture',
    (name) => {
      const jpeg = fingerprint(reencoded(name));
      expect(jpeg.reason).toBeUndefined();
      expect(compareImages(robot, jpeg)).toMatchObject({ verdict: 'same-picture' });
      expect(compareImages(fingerprint(image('chair.png')), jpeg)).toMatchObject({ verdict: 'different' });
    },
  );

  it('different pictures are different, the same bytes the same file', () => {
    expect(compareImages(robot, fingerprint(image('chair.png')))).toMatchObject({ verdict: 'different' });
    expect(compareImages(robot, fingerprint(image('fox.jpg')))).toMatchObject({ verdict: 'different' });
    expect(compareImages(robot, fingerprint(image('robot.png')))).toEqual({ verdict: 'same-file' });
  });

  it("the engine's recompressed upload is other bytes but the same picture; malformed bytes are stored as sent", async () => {
    for (const bytes of [image('robot.png'), image('fox.jpg')]) {
      const stored = await recompressUpload(bytes);
      expect(stored.equals(bytes)).toBe(false);
      expect(compareImages(fingerprint(bytes), fingerprint(stored))).toMatchObject({
        verdict: 'same-picture',
        differing: 0,
      });
    }
    const truncated = Buffer.from('iVBORw0KGgoAAAANSUhEUg==', 'base64');
    expect(await recompressUpload(truncated)).toBe(truncated);
  });
});

describe('cases left undecided', () => {
  it('a picture that cannot be decoded, a plain one, and other proportions are "unsure"', () => {
    const robot = fingerprint(image('robot.png'));
    const webp = fingerprint(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'));
    expect(webp.reason).toMatch(/WebP pictures cannot be compared/);
    expect(compareImages(robot, webp)).toMatchObject({ verdict: 'unsure' });

    const flat = (grey: number) => encodePng(32, 32, 0, 8, false, () => [grey, grey, grey, 255]);
    expect(compareImages(fingerprint(flat(200)), fingerprint(flat(201)))).toMatchObject({
      verdict: 'unsure',
      why: expect.stringContaining('too plain'),
    });

    const pattern = (w: number, h: number) => encodePng(w, h, 2, 8, false, (x, y) => picture(x / w, y / h));
    expect(compareImages(fingerprint(pattern(64, 64)), fingerprint(pattern(96, 64)))).toMatchObject({
      verdict: 'unsure',
      why: expect.stringContaining('proportions'),
    });
  });
});

describe('PNG decoding', () => {
  const W = 40;
  const H = 30;
  const rgba = (x: number, y: number) => picture(x / W, y / H);
  const reference = decodePng(encodePng(W, H, 6, 8, false, rgba));

  it.each([
    ['RGB 8-bit', 2, 8, false],
    ['RGB 16-bit', 2, 16, false],
    ['RGBA interlaced (Adam7)', 6, 8, true],
    ['RGB 8-bit interlaced', 2, 8, true],
  ] as const)('%s gives the same brightness as RGBA 8-bit', (_name, colorType, depth, interlaced) => {
    const decoded = decodePng(encodePng(W, H, colorType, depth, interlaced, rgba));
    expect(decoded).toMatchObject({ width: W, height: H });
    expect(decoded.grids).toHaveLength(1);
    const a = reference.grids[0]!.values();
    const b = decoded.grids[0]!.values();
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(1.5);
  });

  it('grey, grey with alpha and palette pictures decode to their brightness', () => {
    const grey = (x: number, y: number): Rgba => {
      const v = Math.round(255 * ((x + y) % 2));
      return [v, v, v, 255];
    };
    for (const [colorType, depth] of [
      [0, 1],
      [0, 8],
      [0, 16],
      [4, 8],
      [3, 1],
      [3, 8],
    ] as const) {
      const values = decodePng(encodePng(4, 4, colorType, depth, false, grey)).grids[0]!.values();
      expect([...values], `colour type ${colorType}, ${depth}-bit`).toEqual([
        0, 255, 0, 255, 255, 0, 255, 0, 0, 255, 0, 255, 255, 0, 255, 0,
      ]);
    }
  });

  it('a transparent picture is compared over white and over black', () => {
    const cut = (x: number, y: number): Rgba =>
      x < 16 ? [0, 0, 0, 0] : ([...picture(x / 32, y / 32).slice(0, 3), 255] as Rgba);
    const decoded = decodePng(encodePng(32, 32, 6, 8, false, cut));
    expect(decoded.grids).toHaveLength(2);
    expect(decoded.grids[0]!.values()[0]).toBe(255);
    expect(decoded.grids[1]!.values()[0]).toBe(0);
  });

  it('says what is wrong with a broken PNG', () => {
    expect(() => decodePng(Buffer.from('iVBORw0KGgoAAAANSUhEUg==', 'base64'))).toThrow(/cut off|IHDR/);
  });
});

type Rgba = [number, number, number, number];

const decodePng = (bytes: Buffer) => lumaOf(decodeImage(bytes));

/** A picture with strong shapes: a bright disc and a dark band on a gradient. */
function picture(u: number, v: number): Rgba {
  const disc = Math.hypot(u - 0.35, v - 0.45) < 0.22;
  const band = Math.abs(u - v - 0.1) < 0.08;
  const r = disc ? 240 : band ? 30 : Math.round(60 + 150 * u);
  const g = disc ? 200 : band ? 40 : Math.round(90 + 100 * v);
  const b = disc ? 60 : band ? 120 : Math.round(200 - 120 * u);
  return [r, g, b, 255];
}

/**
 * A small PNG encoder for the tests: colour types 0, 2, 3, 4, 6; bit depths 1–16; Adam7; every row
 * filter in turn. The palette of type 3 is built from the picture (black and white only here).
 */
function encodePng(
  width: number,
  height: number,
  colorType: 0 | 2 | 3 | 4 | 6,
  depth: 1 | 8 | 16,
  interlaced: boolean,
  at: (x: number, y: number) => Rgba,
): Buffer {
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  const palette: number[][] = [];
  const samples = (x: number, y: number): number[] => {
    const [r, g, b, a] = at(x, y);
    const grey = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    if (colorType === 3) {
      let i = palette.findIndex((p) => p[0] === r && p[1] === g && p[2] === b);
      if (i < 0) i = palette.push([r, g, b]) - 1;
      return [i];
    }
    const max = 2 ** depth - 1;
    const scale = (v: number) => Math.round((v / 255) * max);
    return { 0: [grey], 2: [r, g, b], 4: [grey, a], 6: [r, g, b, a] }[colorType]!.map(scale);
  };
  const passes = interlaced
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ]
    : [[0, 0, 1, 1]];
  const bpp = Math.max(1, (channels * depth) >> 3);
  const raw: number[] = [];
  let rowIndex = 0;
  for (const [x0, y0, dx, dy] of passes as [number, number, number, number][]) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    let previous: number[] = new Array(Math.ceil((w * channels * depth) / 8)).fill(0);
    for (let r = 0; r < h; r++) {
      const bits: number[] = [];
      for (let i = 0; i < w; i++) for (const s of samples(x0 + i * dx, y0 + r * dy)) bits.push(s);
      const row = pack(bits, depth);
      const filter = rowIndex++ % 5;
      raw.push(
        filter,
        ...row.map((value, i) => {
          const left = i >= bpp ? row[i - bpp]! : 0;
          const up = previous[i]!;
          const upLeft = i >= bpp ? previous[i - bpp]! : 0;
          const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter]!;
          return (value - predictor) & 255;
        }),
      );
      previous = row;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colorType, 0, 0, interlaced ? 1 : 0], 8);
  const chunks = [pngChunk('IHDR', ihdr)];
  if (colorType === 3) chunks.push(pngChunk('PLTE', Buffer.from(palette.flat())));
  chunks.push(pngChunk('IDAT', deflateSync(Buffer.from(raw))), pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat([PNG_SIGNATURE, ...chunks]);
}

function pack(samples: number[], depth: number): number[] {
  if (depth === 8) return samples;
  if (depth === 16) return samples.flatMap((s) => [s >> 8, s & 255]);
  const out = new Array(Math.ceil((samples.length * depth) / 8)).fill(0);
  for (const [i, s] of samples.entries()) out[(i * depth) >> 3] |= s << (8 - depth - ((i * depth) & 7));
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
