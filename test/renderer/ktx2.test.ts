// The viewer's KTX2 decoding (renderer/viewer/ktx2/transcode.ts) with the transcoder the app ships: the
// codecs glTF's KHR_texture_basisu allows (ETC1S, UASTC with Zstandard) come out as RGBA8 levels with
// the right pixels; a damaged or foreign file is refused with a message.
import { beforeAll, describe, expect, it } from 'vitest';
import { Ktx2Error, transcodeKtx2, transferFunction, type BasisModule } from '../../renderer/viewer/ktx2/transcode.ts';
import { babylonBasisTranscoder, encodeKtx2, halves, pixels } from './ktx2-fixtures.ts';

let basis: BasisModule;
beforeAll(async () => {
  basis = await babylonBasisTranscoder();
});

const W = 64;
const H = 32;

describe('KTX2 decoding', () => {
  it.each(['etc1s', 'uastc'] as const)('decodes %s to RGBA8 with every mip level and its colours', async (codec) => {
    const ktx2 = await encodeKtx2(W, H, pixels(W, H, halves(W)), codec);
    expect(transferFunction(ktx2)).toBe(2); // sRGB
    const decoded = transcodeKtx2(basis, ktx2);
    expect(decoded).toMatchObject({
      width: W,
      height: H,
      transcodedFormat: 0x8058,
      isInGammaSpace: true,
      hasAlpha: false,
    });
    expect(decoded.mipmaps.map((m) => [m.width, m.height])).toEqual([
      [64, 32],
      [32, 16],
      [16, 8],
      [8, 4],
      [4, 2],
      [2, 1],
      [1, 1],
    ]);
    for (const m of decoded.mipmaps) expect(m.data.length).toBe(m.width * m.height * 4);
    const at = (x: number, y: number) =>
      Array.from(decoded.mipmaps[0]!.data.subarray((y * W + x) * 4, (y * W + x) * 4 + 4));
    const close = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]!) <= 24);
    expect(close(at(8, 8), [230, 30, 30, 255]), `left ${at(8, 8)}`).toBe(true);
    expect(close(at(56, 24), [30, 60, 230, 255]), `right ${at(56, 24)}`).toBe(true);
  });

  it('refuses a file that is not KTX2, and a damaged one, saying so', async () => {
    expect(() => transcodeKtx2(basis, new Uint8Array(200))).toThrow(Ktx2Error);
    expect(() => transcodeKtx2(basis, new Uint8Array(200))).toThrow(/not a KTX2 file/);
    const ktx2 = await encodeKtx2(W, H, pixels(W, H, halves(W)), 'etc1s');
    const damaged = ktx2.slice(0, Math.floor(ktx2.length * 0.6)); // the level data cut off
    expect(() => transcodeKtx2(basis, damaged)).toThrow(Ktx2Error);
  });
});
