// A styled picture's palette is read from the style's stored zip by whatever makes the picture (a worker of the
// engine's pool), not by the engine's thread when the session ends: the recipe names the zip, and the picture is
// the one the zip's palette gives. A zip no longer stored gives the unstyled picture, never an error.
import { describe, expect, it } from 'vitest';
import { makeArtifact } from '../../../main/engine/artifacts.ts';
import { paletteOfZip } from '../../../main/engine/picture/palette.ts';
import { encodePng } from '../../../main/formats/png.ts';
import { buildZip } from '../../../main/formats/zip.ts';

const reds = buildZip(
  [
    [200, 30, 20],
    [150, 10, 40],
  ].map(([r, g, b], i) => ({
    name: `reds/${i}.png`,
    data: encodePng(
      8,
      8,
      new Uint8Array(8 * 8 * 4).map((_, k) => [r, g, b, 255][k % 4]!),
    ),
  })),
);
const prompt = 'a blue boat on a calm lake';

describe('prompt-image recipes with a style zip', () => {
  it('draw with the palette of the stored zip, as a recipe carrying that palette does', () => {
    const read = (key: string) => {
      if (key !== 'style-1/zip.zip') throw new Error(`not stored: ${key}`);
      return reds;
    };
    const fromZip = makeArtifact(
      { type: 'prompt-image', prompt, palette: [], size: 64, styleZip: 'style-1/zip.zip' },
      read,
    );
    const fromPalette = makeArtifact({ type: 'prompt-image', prompt, palette: paletteOfZip(reds), size: 64 });
    const plain = makeArtifact({ type: 'prompt-image', prompt, palette: [], size: 64 });
    expect(fromZip.equals(fromPalette)).toBe(true);
    expect(fromZip.equals(plain)).toBe(false);
  });

  it('draw the unstyled picture when the zip is not stored', () => {
    const gone = () => {
      throw new Error('ENOENT');
    };
    const drawn = makeArtifact({ type: 'prompt-image', prompt, palette: [], size: 64, styleZip: 'old/zip.zip' }, gone);
    expect(drawn.equals(makeArtifact({ type: 'prompt-image', prompt, palette: [], size: 64 }))).toBe(true);
  });
});
