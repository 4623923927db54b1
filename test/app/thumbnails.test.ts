// The library's thumbnails, without a bridge: which cached model is drawn, and the drawing itself (a real
// textured model from the fixtures, no GPU).
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { modelToRender, renderModelThumbnail, THUMBNAIL_SIZE } from '../../main/app/thumbnails.ts';
import type { CacheEntry } from '../../main/store/cache-entries.ts';
import { realFixture } from '../fixtures.ts';

const entry = (kind: string, state: CacheEntry['state'] = 'complete') => ({ kind, state }) as CacheEntry;

describe('modelToRender', () => {
  it('picks the refined mesh over the final and the preview, GLB over OBJ, and skips what is not complete or not a model', () => {
    expect(
      modelToRender([entry('preview_glb'), entry('obj'), entry('glb'), entry('polished_glb', 'partial')]),
    ).toMatchObject({ entry: { kind: 'glb' }, format: 'glb' });
    expect(modelToRender([entry('preview_glb'), entry('polished_obj')])).toMatchObject({
      entry: { kind: 'polished_obj' },
      format: 'obj',
    });
    expect(modelToRender([entry('retopo_obj_1'), entry('retopo_obj'), entry('retopo_image')])).toMatchObject({
      entry: { kind: 'retopo_obj' },
      format: 'obj',
    });
    expect(modelToRender([entry('prompt:p1'), entry('animation'), entry('mesh')])).toMatchObject({
      entry: { kind: 'animation' },
    });
    expect(modelToRender([entry('image'), entry('fbx'), entry('usdz'), entry('spin_0'), entry('mp4')])).toBeUndefined();
  });
});

describe('renderModelThumbnail', () => {
  it("draws a GLB in its texture's colours on the background gradient", async () => {
    const png = PNG.sync.read(await renderModelThumbnail(realFixture('glb', 'Fox.glb'), 'glb'));
    expect([png.width, png.height]).toEqual([THUMBNAIL_SIZE, THUMBNAIL_SIZE]);
    let orange = 0;
    const colours = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4) {
      const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      colours.add((r << 16) | (g << 8) | b);
      if (r > 150 && g > 50 && g < 140 && b < 80) orange++; // the fox's fur, from its texture (its material's colour is white)
    }
    expect(colours.size).toBeGreaterThan(200);
    expect(orange).toBeGreaterThan(500);
  });
});
