// e2e: every 3D view opens on the model's front (glTF's +Z), turned a little towards its left, and its Front,
// Side, Back and Top buttons and keys (F, S, B, T) show those sides. The model is a cube written here whose six
// faces have their own colours (+Z red, -Z blue, +X green, -X yellow, +Y magenta, -Y cyan), so the canvas says
// which side is seen. Before this, the viewer opened from behind: the blue face, the front hidden. Real models
// (Khronos' Fox, Male_Casual) are opened too, for the screenshots in test-results/viewer/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { facesSeen, markedCube, type Seen, visibleFaces } from '../shared/marked-cube.ts';
import { canvasRgb } from './canvas.ts';
import { poll } from './harness.ts';
import { changeView, expectRendered, modelShown, openFiles, useViewerHarness } from './viewer-page.ts';

const h = useViewerHarness();
const dir = mkdtempSync(join(tmpdir(), 'viewer-front-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function seen(canvas = '.viewer-canvas'): Promise<Seen> {
  const width = 160;
  return facesSeen(await canvasRgb(h.page, canvas, width), width);
}

const visible = visibleFaces;

describe('the front of a model', () => {
  it('opens on the front three-quarter view: the +Z face, with the model’s left side on its right', async () => {
    const cube = join(dir, 'marked-cube.glb');
    await markedCube(cube);
    await openFiles(h, [cube]);
    await expectRendered(h, 'marked-cube.glb', 'front-default');
    const s = await seen();
    expect(visible(s), JSON.stringify(s.share)).toEqual(['red', 'green', 'magenta']);
    expect(s.share.red).toBeGreaterThan(0.05);
    // The model's left (+X) is on the screen's right of its front, as a person facing you holds their left hand.
    expect(s.x.green).toBeGreaterThan(s.x.red);
  });

  it('Front (key F) shows the +Z face alone', async () => {
    // From another view first, so that the key is seen to turn the camera.
    await changeView(h, () => h.page.click('.viewer-views button[data-view="back"]'));
    await h.page.locator('.viewer-canvas').focus();
    await changeView(h, () => h.page.keyboard.press('f'));
    await h.screenshot('front-key-f', h.page.locator('.viewer'));
    const s = await seen();
    expect(visible(s), JSON.stringify(s.share)).toEqual(['red']);
    expect(s.share.red).toBeGreaterThan(0.05);
  });

  it('Back (key B) shows the -Z face, Side (S) the model’s left, Top (T) the top with the front at the bottom', async () => {
    await changeView(h, () => h.page.keyboard.press('b'));
    await h.screenshot('front-key-b', h.page.locator('.viewer'));
    expect(visible(await seen())).toEqual(['blue']);
    await changeView(h, () => h.page.keyboard.press('s'));
    await h.screenshot('front-key-s', h.page.locator('.viewer'));
    expect(visible(await seen())).toEqual(['green']);
    await changeView(h, () => h.page.keyboard.press('t'));
    await h.screenshot('front-key-t', h.page.locator('.viewer'));
    expect(visible(await seen())).toEqual(['magenta']);
    // Frame goes back to the view it opened on.
    await changeView(h, () => h.page.click('.viewer button:text-is("Frame")'));
    expect(visible(await seen())).toEqual(['red', 'green', 'magenta']);
  });

  it('the buttons carry their keys in their titles, and a key typed in a text field is left alone', async () => {
    const titles = await h.page
      .locator('.viewer-views button')
      .evaluateAll((bs) =>
        bs.map(
          (b) =>
            `${(b as unknown as { textContent: string }).textContent}: ${(b as unknown as { title: string }).title}`,
        ),
      );
    expect(titles).toEqual([
      'Front: Front view: the model facing you (key F)',
      "Side: Side view: the model's left side (on your right in the front view) (key S)",
      'Back: Back view (key B)',
      'Top: Top view: from above, the front at the bottom (key T)',
    ]);
    const camera = await h.page.locator('.viewer-canvas').getAttribute('data-camera');
    await h.page.locator('.viewer-canvas').focus();
    // A text field outside the viewer: typing there must not turn the view.
    await h.page.evaluate(() => {
      const doc = (globalThis as unknown as { document: any }).document;
      const input = doc.createElement('input');
      input.id = 'typing-test';
      doc.body.append(input);
      input.focus();
    });
    await h.page.keyboard.type('bfst');
    await new Promise((r) => setTimeout(r, 300));
    await poll(() => h.page.locator('.viewer-canvas').getAttribute('data-rendering')).toBe('idle');
    expect(await h.page.locator('.viewer-canvas').getAttribute('data-camera')).toBe(camera);
  });

  it.each([
    ['Fox.glb', realFixture('glb', 'Fox.glb')],
    ['Male_Casual.fbx', realFixture('fbx', 'Male_Casual.fbx')],
  ])('opens %s on its front', async (name, path) => {
    await openFiles(h, [path]);
    await modelShown(h, { name });
    await h.page.locator('.viewer-canvas').focus();
    await h.screenshot(`front-${name.replace(/\.\w+$/, '')}`, h.page.locator('.viewer'));
    await changeView(h, () => h.page.keyboard.press('f'));
    await h.screenshot(`front-${name.replace(/\.\w+$/, '')}-front`, h.page.locator('.viewer'));
  });

  it('compare: both views open on the front, and a key or a button turns both (their cameras are linked)', async () => {
    const cube = join(dir, 'marked-cube.glb');
    await h.go('#/compare');
    const sides = ['a', 'b'].map((x) => `.compare-side[data-side="${x}"]`);
    for (const side of sides) {
      await h.page.setInputFiles(`${side} input[type="file"]`, [cube]);
      await modelShown(h, { name: 'marked-cube.glb', scope: side });
    }
    const both = async () => Promise.all(sides.map(async (side) => visible(await seen(`${side} .viewer-canvas`))));
    expect(await both()).toEqual([
      ['red', 'green', 'magenta'],
      ['red', 'green', 'magenta'],
    ]);
    await h.screenshot('front-compare', h.page.locator('.compare'));
    // A key with the focus on the page (outside both viewers) turns both.
    await h.page.evaluate(() => (globalThis as unknown as { document: any }).document.activeElement?.blur());
    await h.page.keyboard.press('b');
    await poll(both).toEqual([['blue'], ['blue']]);
    // A button of the left view turns the right one too.
    await h.page.click(`${sides[0]} .viewer-views button[data-view="side"]`);
    await poll(both).toEqual([['green'], ['green']]);
    await h.screenshot('front-compare-side', h.page.locator('.compare'));
  });
});
