import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderPreviewImage, renderTexture } from '../../../main/engine/outputs/pictures.ts';
import { decodePngSize, encodePng } from '../../../main/formats/png.ts';

/** A strict little PNG reader: checks every CRC and accepts only 8-bit RGBA rows with filter 0. */
function decodePng(buf: Buffer): { width: number; height: number; rgba: Uint8Array; chunks: string[] } {
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < buf.length; ) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + length);
    expect(buf.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(crc32(buf.subarray(at + 4, at + 8 + length)));
    chunks.push(type);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([...data.subarray(8)]).toEqual([8, 6, 0, 0, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe(height * (width * 4 + 1));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    expect(raw[row]).toBe(0);
    rgba.set(raw.subarray(row + 1, row + 1 + width * 4), y * width * 4);
  }
  return { width, height, rgba, chunks };
}

describe('encodePng', () => {
  it('round-trips pixels through a strict decoder', () => {
    const width = 7;
    const height = 5;
    const rgba = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i * 37) % 256);
    const png = decodePng(encodePng(width, height, rgba));
    expect(png.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([png.width, png.height]).toEqual([width, height]);
    expect(png.rgba).toEqual(rgba);
  });

  it('rejects a pixel buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(15))).toThrow(RangeError);
    expect(() => encodePng(0, 2, new Uint8Array(0))).toThrow(RangeError);
  });
});

describe('decodePngSize', () => {
  it('reads the size from IHDR', () => {
    expect(decodePngSize(encodePng(3, 9, new Uint8Array(3 * 9 * 4)))).toEqual({ width: 3, height: 9 });
  });

  it('throws on something that is not a PNG', () => {
    expect(() => decodePngSize(Buffer.from('GIF89a, definitely not a PNG image'))).toThrow(/not a PNG/);
    expect(() => decodePngSize(Buffer.alloc(4))).toThrow(/not a PNG/);
  });
});

describe('renderPreviewImage', () => {
  it('draws a picture of the requested size with many colours', () => {
    const png = decodePng(renderPreviewImage('job-1', 256, 256));
    expect([png.width, png.height]).toEqual([256, 256]);
    const colours = new Set<number>();
    for (let i = 0; i < png.rgba.length; i += 4) colours.add(Buffer.from(png.rgba.subarray(i, i + 3)).readUIntBE(0, 3));
    expect(colours.size).toBeGreaterThan(100);
    expect(png.rgba.filter((_, i) => i % 4 === 3).every((a) => a === 255)).toBe(true);
  });

  it('is deterministic per seed and differs between seeds', () => {
    const a = renderPreviewImage('seed-a', 64, 48);
    expect(renderPreviewImage('seed-a', 64, 48).equals(a)).toBe(true);
    expect(renderPreviewImage('seed-b', 64, 48).equals(a)).toBe(false);
    expect(decodePngSize(renderPreviewImage('wide', 512, 128))).toEqual({ width: 512, height: 128 });
  });

  it('renders 256 x 256 textures', () => {
    expect(decodePngSize(renderTexture('model'))).toEqual({ width: 256, height: 256 });
  });
});
