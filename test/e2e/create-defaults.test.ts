// e2e (#24 item 7b, 7c): the image-to-3D form keeps the service's texture default (none) and says next to it
// what that means and what a game asset wants; a small picture (80×73 px) is warned about before sending,
// with the texture the local engine will make for it (shared/picture-detail.ts), and a 512-pixel one is not.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../main/images/decode-image.ts';
import { encodePng } from '../../main/formats/png.ts';
import { realFixture } from '../fixtures.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '#/create/image-to-3d');

/** chair.png shrunk (nearest pixel) to 80×73, as a PNG file. */
function smallPicture(): string {
  const big = decodeImage(readFileSync(realFixture('images', 'chair.png')));
  const [w, hgt] = [80, 73];
  const out = new Uint8Array(w * hgt * 4);
  for (let y = 0; y < hgt; y++)
    for (let x = 0; x < w; x++) {
      const s = (Math.floor(((y + 0.5) * big.height) / hgt) * big.width + Math.floor(((x + 0.5) * big.width) / w)) * 4;
      out.set(big.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  const path = join(mkdtempSync(join(tmpdir(), 'small-picture-')), 'tiny-chair.png');
  writeFileSync(path, encodePng(w, hgt, out));
  return path;
}

describe('the image-to-3D form’s defaults', () => {
  it('keeps texture none (the service’s default) and explains the choice next to it', async () => {
    const { page } = h;
    await page.waitForSelector('#i3d-texture');
    expect(await page.locator('#i3d-texture').inputValue()).toBe('none');
    expect(await page.locator('#i3d-texture option:checked').textContent()).toContain('(default)');
    await poll(textOf(page.locator('#i3d-texture-hint'))).toBe(
      "none is the service's default: the model comes grey, with no texture. For a game asset choose pbr (colour, metallic and roughness maps that light correctly in Unity, Unreal and Godot) or baked (the picture's lighting painted in).",
    );
  });

  it('warns about an 80×73 picture before sending, with the texture it can give; not about a 512-pixel one', async () => {
    const { page } = h;
    await page.setInputFiles('#i3d-image-file', smallPicture());
    const warning = page.locator('.small-picture');
    await poll(async () => (await warning.count()) > 0 && (await warning.getAttribute('data-picture-size'))).toBe(
      '80x73',
    );
    const text = await textOf(warning)();
    expect(text).toContain('This picture is 80×73 px, small for a 3D model');
    expect(text).toContain('256×128 px here');
    expect(text).toContain('high_poly still spends up to 20,000 faces');
    expect(text).toContain('at least 256 px on its shorter side, or low_poly');
    await page.selectOption('#i3d-resolution', 'low_poly');
    await poll(textOf(warning)).toContain('low_poly still spends up to 2,000 faces');
    await h.screenshot('create-small-picture', page.locator('.create-form').first());
    await page.setInputFiles('#i3d-image-file', realFixture('images', 'chair.png'));
    await poll(textOf(page.locator('.image-source .hint'))).toContain('chair.png');
    await poll(() => warning.count()).toBe(0);
    expect(h.pageErrors).toEqual([]);
  });
});
