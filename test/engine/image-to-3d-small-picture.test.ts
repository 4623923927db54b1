// Image-to-3D of a small picture (#24 item 7b) over HTTP: the local engine's texture is sized to what the
// picture can give (shared/picture-detail.ts: each half of the atlas no larger than the next power of two at or
// above the picture's larger side), not to the face budget alone: an 80×73 picture at high_poly gets a
// 256×128 texture, not 2048×1024; a 512-pixel picture gets 1024×512.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../main/formats/png.ts';
import { nextPowerOfTwo, textureSideFor } from '../../shared/picture-detail.ts';
import { picture, pictureBytes, readGlbModel } from './generate/fixtures.ts';
import { download, endedImageTo3d, startTestEngine, type TestEngine } from './helpers.ts';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.dispose());

/** chair.png shrunk (nearest pixel) to width × height, as a PNG. */
function smallChair(width: number, height: number): Buffer {
  const big = picture('chair.png');
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const sx = Math.floor(((x + 0.5) * big.width) / width);
      const sy = Math.floor(((y + 0.5) * big.height) / height);
      out.set(big.data.subarray((sy * big.width + sx) * 4, (sy * big.width + sx) * 4 + 4), (y * width + x) * 4);
    }
  return encodePng(width, height, out);
}

async function textureOf(png: Buffer): Promise<[number, number]> {
  const { done } = await endedImageTo3d(engine, {
    image_url: `data:image/png;base64,${png.toString('base64')}`,
    texture_model: 'baked',
    resolution: 'high_poly',
  });
  expect(done.session_status).toBe('complete');
  const { images } = readGlbModel((await download(done.mesh_url_glb)).bytes);
  expect(images).toHaveLength(1);
  return [images[0]!.width, images[0]!.height];
}

describe('the texture of a model made from a picture', () => {
  it('the rule: the budget’s side, no larger than the next power of two at or above the picture’s larger side', () => {
    expect(nextPowerOfTwo(80)).toBe(128);
    expect(nextPowerOfTwo(128)).toBe(128);
    expect(textureSideFor(1024, { width: 80, height: 73 })).toBe(128);
    expect(textureSideFor(1024, { width: 512, height: 512 })).toBe(512);
    expect(textureSideFor(512, { width: 4000, height: 3000 })).toBe(512);
  });

  it('an 80×73 picture at high_poly gets a 256×128 texture (not 2048×1024)', async () => {
    expect(await textureOf(smallChair(80, 73))).toEqual([256, 128]);
  });

  it('a 512×512 picture at high_poly gets 1024×512: the picture’s size, not the budget’s 2048×1024', async () => {
    expect(await textureOf(pictureBytes('chair.png'))).toEqual([1024, 512]);
  });
});
