import { GifWriter } from 'omggif';
import { describe, expect, it } from 'vitest';
import { checkDeclaredSize, decodeImage, ImageDecodeError } from '../../main/images/decode-image.ts';
import { gifBomb, jpegBomb, pngBomb } from '../engine/bombs.ts';
import { encodePng } from '../../main/formats/png.ts';
import { pictureBytes } from '../engine/generate/fixtures.ts';

describe('decodeImage', () => {
  it('decodes the real PNGs to RGBA with their transparency', () => {
    for (const name of ['chair.png', 'robot.png'] as const) {
      const image = decodeImage(pictureBytes(name));
      expect([image.width, image.height]).toEqual([512, 512]);
      expect(image.data.length).toBe(512 * 512 * 4);
      expect(image.data[3]).toBe(0); // the corner is cut out
      const centre = (256 * 512 + 256) * 4;
      expect(image.data[centre + 3]).toBe(255); // the subject is opaque
    }
  });

  it('decodes the real JPEG to opaque RGBA with its colours', () => {
    const image = decodeImage(pictureBytes('fox.jpg'));
    expect([image.width, image.height]).toEqual([625, 625]);
    expect(image.data.filter((_, i) => i % 4 === 3 && image.data[i] !== 255).length).toBe(0);
    const corner = Array.from(image.data.subarray(0, 3));
    for (const c of corner) expect(c).toBeGreaterThan(150); // light grey backdrop
    expect(Math.max(...corner) - Math.min(...corner)).toBeLessThan(8);
    // The fox's orange fur on its cheek: red well above blue.
    const fur = (200 * 625 + 380) * 4;
    expect(image.data[fur]! - image.data[fur + 2]!).toBeGreaterThan(80);
  });

  it('decodes every PNG colour type the way it looks (a palette PNG read by pngjs)', () => {
    const rgba = new Uint8Array(4 * 4 * 4);
    for (let i = 0; i < 16; i++) rgba.set(i < 8 ? [255, 0, 0, 255] : [0, 0, 255, 128], i * 4);
    const image = decodeImage(encodePng(4, 4, rgba));
    expect(Array.from(image.data)).toEqual(Array.from(rgba));
  });

  it('decodes the first frame of a GIF, transparent index included', () => {
    const bytes = Buffer.alloc(1024);
    const gif = new GifWriter(bytes, 2, 2, { palette: [0xff0000, 0x00ff00] });
    gif.addFrame(0, 0, 2, 2, [0, 1, 1, 0], { transparent: 1 });
    const image = decodeImage(bytes.subarray(0, gif.end()));
    expect(Array.from(image.data.subarray(0, 4))).toEqual([255, 0, 0, 255]);
    expect(image.data[7]).toBe(0);
  });

  it('refuses WebP, unknown bytes and a cut-off PNG with a message that says what to do', () => {
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
    expect(() => decodeImage(webp)).toThrow(ImageDecodeError);
    expect(() => decodeImage(webp)).toThrow(/WebP.*send it as PNG or JPEG/);
    expect(() => decodeImage(Buffer.from('hello'))).toThrow(/not a PNG, JPEG or GIF/);
    const cut = pictureBytes('chair.png').subarray(0, 2000);
    expect(() => decodeImage(cut)).toThrow(/could not be decoded as PNG .*damaged or cut off/);
  });
});

describe('decompression bombs (issue #26 item 6): declared sizes checked before anything is decoded', () => {
  it('refuses a 35-byte GIF whose frame declares 30000×30000 behind a 16×16 screen, at once, naming the limit', () => {
    const bomb = gifBomb();
    expect(bomb.length).toBe(35);
    const started = performance.now();
    expect(() => decodeImage(bomb)).toThrow(
      'The picture is a GIF whose frame 1 declares 30000×30000 pixels, more than the 64 megapixels the local engine reads',
    );
    expect(() => decodeImage(gifBomb(30_000, 30_000, 1))).toThrow(/GIF whose frame 2 declares 30000×30000 pixels/);
    expect(performance.now() - started).toBeLessThan(1000); // it took 15 s when the frame was decoded
  });

  it('refuses a PNG whose IHDR declares 50000×50000 before inflating its data, and a JPEG whose SOF declares 65535×65535', () => {
    expect(() => decodeImage(pngBomb())).toThrow(
      'The picture is a PNG whose header declares 50000×50000 pixels, more than the 64 megapixels the local engine reads',
    );
    expect(() => decodeImage(jpegBomb())).toThrow(
      'The picture is a JPEG whose frame header declares 65535×65535 pixels, more than the 64 megapixels',
    );
    expect(() => checkDeclaredSize(pngBomb(4000, 4000))).not.toThrow();
  });
});
