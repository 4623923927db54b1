// A cached blob has no extension: the type it is served with comes from its first bytes (the one table of
// signatures, shared/file-signature.ts), a USDZ told from a zip by its first entry.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedContentType } from '../../main/host/cache-routes.ts';
import { tempDir } from '../helpers.ts';

describe('the content type of a cached blob', () => {
  it('is read from its bytes', async () => {
    const dir = tempDir();
    const typeOf = (bytes: Buffer) => {
      const path = join(dir, `blob-${bytes.length}-${bytes[0]}-${bytes[4]}`);
      writeFileSync(path, bytes);
      return cachedContentType(path);
    };
    expect(await typeOf(Buffer.from('\0\0\0\x20ftypisom\0\0\x02\0', 'latin1'))).toBe('video/mp4');
    expect(await typeOf(Buffer.from('glTF\x02\0\0\0\0\0\0\0', 'latin1'))).toBe('model/gltf-binary');
    expect(await typeOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]))).toBe('image/png');
    expect(await typeOf(Buffer.from('not a known format at all', 'latin1'))).toBe('application/octet-stream');
  });
});
