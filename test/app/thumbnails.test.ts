// The library's thumbnails, without a bridge: which cached model is drawn, and the drawing itself (a real
// textured model from the fixtures, no GPU).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { modelToRender, renderModelThumbnail, THUMBNAIL_SIZE } from '../../main/app/thumbnails.ts';
import type { CacheEntry } from '../../main/store/cache-entries.ts';
import { eyeDirection, HOME_VIEW } from '../../shared/views.ts';
import { realFixture } from '../fixtures.ts';
import { facesSeen, markedCube, visibleFaces } from '../shared/marked-cube.ts';

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

describe('the thumbnail camera', () => {
  it('shows the front (+Z) from the front three-quarter view the viewer opens on: the model’s left side on the right', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thumbnail-front-'));
    try {
      const cube = join(dir, 'marked-cube.glb');
      await markedCube(cube);
      const png = PNG.sync.read(await renderModelThumbnail(cube, 'glb'));
      const seen = facesSeen(png.data, png.width, 4);
      // The same faces, in the same order and places, as test/e2e/viewer-front.test.ts sees on the viewer's canvas.
      expect(visibleFaces(seen), JSON.stringify(seen.share)).toEqual(['red', 'green', 'magenta']);
      expect(seen.share.red).toBeGreaterThan(0.1);
      expect(seen.x.green).toBeGreaterThan(seen.x.red);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('looks from HOME_VIEW, the direction the viewer frames a model from', () => {
    const [x, y, z] = eyeDirection(HOME_VIEW);
    expect(z).toBeGreaterThan(0.8); // in front of the model
    expect(x).toBeGreaterThan(0); // turned towards its left
    expect(y).toBeGreaterThan(0); // from above
    expect(Math.hypot(x, y, z)).toBeCloseTo(1, 9);
  });
});
