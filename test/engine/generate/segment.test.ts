import { describe, expect, it } from 'vitest';
import { segmentSubject } from '../../../main/engine/generate/segment.ts';
import type { RgbaImage } from '../../../main/images/decode-image.ts';
import { alphaMask, iou, picture } from './fixtures.ts';

/** A synthetic picture: `paint(x, y)` gives each pixel's RGBA. */
function draw(
  width: number,
  height: number,
  paint: (x: number, y: number) => [number, number, number, number],
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 4);
  return { width, height, data };
}

const inside = (seg: ReturnType<typeof segmentSubject>, x: number, y: number) =>
  seg.mask.data[y * seg.mask.width + x] === 1;

describe('segmentSubject', () => {
  it.each(['chair.png', 'robot.png'] as const)('takes the subject of %s from its alpha channel', (name) => {
    const image = picture(name);
    const seg = segmentSubject(image);
    expect(seg.method).toBe('alpha');
    // Only specks and stray bits apart from the main body are dropped.
    expect(iou(seg.mask.data, alphaMask(image))).toBeGreaterThan(0.98);
  });

  it('keeps the chair in one piece with the gap under its seat open', () => {
    const seg = segmentSubject(picture('chair.png'));
    expect(seg.box).toEqual({ x0: 135, y0: 43, x1: 378, y1: 470 });
    expect(inside(seg, 256, 150)).toBe(true); // the back's cushion
    expect(inside(seg, 256, 270)).toBe(true); // the seat
    expect(inside(seg, 256, 400)).toBe(false); // between the legs, below the seat
  });

  it('finds the fox on its grey gradient backdrop from the border colour, shadow left out', () => {
    const seg = segmentSubject(picture('fox.jpg'));
    expect(seg.method).toBe('border');
    // The fox spans from its ears (top) to its paws, from its left cheek to the tail's tip.
    expect(seg.box.y0).toBeGreaterThan(20);
    expect(seg.box.y0).toBeLessThan(45);
    expect(seg.box.y1).toBeGreaterThan(575);
    expect(seg.box.y1).toBeLessThan(605);
    expect(seg.box.x0).toBeGreaterThan(140);
    expect(seg.box.x0).toBeLessThan(185);
    expect(seg.box.x1).toBeGreaterThan(545);
    expect(seg.box.x1).toBeLessThan(580);
    for (const [x, y] of [
      [228, 250], // nose
      [300, 380], // white chest
      [250, 560], // black paw
      [480, 420], // tail
      [400, 90], // right ear
    ] as const) {
      expect(inside(seg, x, y), `(${x}, ${y}) is the fox`).toBe(true);
    }
    for (const [x, y] of [
      [20, 20],
      [600, 300],
      [60, 600], // the lighter floor
      [560, 560], // beside the shadow
      [520, 200], // above the tail
    ] as const) {
      expect(inside(seg, x, y), `(${x}, ${y}) is backdrop`).toBe(false);
    }
  });

  it('keeps an enclosed hole of the background colour open and fills a speck', () => {
    // A dark ring on white, with a one-pixel white speck in the ring itself.
    const image = draw(200, 200, (x, y) => {
      const r = Math.hypot(x - 100, y - 100);
      if (x === 100 && y === 35) return [255, 255, 255, 255];
      return r < 70 && r > 40 ? [40, 60, 90, 255] : [255, 255, 255, 255];
    });
    const seg = segmentSubject(image);
    expect(seg.method).toBe('border');
    expect(inside(seg, 100, 100)).toBe(false); // the hole
    expect(inside(seg, 100, 35)).toBe(true); // the speck, filled
    expect(inside(seg, 100, 45)).toBe(true);
    expect(inside(seg, 5, 5)).toBe(false);
  });

  it('keeps the largest of several separate subjects', () => {
    const image = draw(120, 60, (x, y) => {
      if (x >= 10 && x < 30 && y >= 20 && y < 40) return [200, 0, 0, 255];
      if (x >= 50 && x < 110 && y >= 10 && y < 50) return [0, 0, 200, 255];
      return [250, 250, 250, 255];
    });
    const seg = segmentSubject(image);
    expect(seg.box).toEqual({ x0: 50, y0: 10, x1: 110, y1: 50 });
    expect(seg.area).toBe(60 * 40);
  });

  it('uses the whole picture when nothing stands out from the border', () => {
    const flat = draw(8, 8, () => [170, 170, 170, 255]);
    const seg = segmentSubject(flat);
    expect(seg.method).toBe('whole');
    expect(seg.area).toBe(64);
    expect(seg.box).toEqual({ x0: 0, y0: 0, x1: 8, y1: 8 });
  });
});
