// The engine's `uploadedImages: 'recompressed'` option re-encodes an uploaded PNG; a PNG bomb (a header declaring
// far more pixels than the engine reads) is stored as sent without being inflated (issue #26 item 6).
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../main/engine/outputs/index.ts';
import { recompressUpload } from '../../main/engine/recompress-upload.ts';
import { decodeImage } from '../../main/images/decode-image.ts';
import { pngBomb } from './bombs.ts';

describe('recompressUpload', () => {
  it('re-encodes a PNG: other bytes, the same picture', async () => {
    const png = encodePng(
      4,
      4,
      new Uint8Array(4 * 4 * 4).map((_, i) => (i * 37) % 256),
    );
    const again = await recompressUpload(png);
    expect(again.equals(png)).toBe(false);
    expect(Buffer.from(decodeImage(again).data).equals(Buffer.from(decodeImage(png).data))).toBe(true);
  });

  it('keeps a PNG bomb as sent, without inflating its data', async () => {
    const bomb = pngBomb(50_000, 50_000, 64 * 2 ** 20); // 64 MiB of zeros deflated
    expect(await recompressUpload(bomb)).toBe(bomb); // the old code inflated it and returned new bytes
  });
});
