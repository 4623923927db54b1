// The amounts a download's messages name are written as everywhere else (shared/format-bytes.ts):
// a cancelled download that kept 300 KiB says so, not "0.3 MiB".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DownloadError, Downloader } from '../../main/cache/downloader.ts';
import { tempDir } from '../helpers.ts';

describe('the amounts in download messages', () => {
  it('a cancelled download names the bytes it resumes from in the unit that fits', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'model.part'), new Uint8Array(300 * 1024)); // the bytes an earlier attempt kept
    const downloader = new Downloader({
      dispatcher: () => Promise.reject(new Error('no network in this test')),
      retry: { maxAttempts: 1 },
    });
    const error = await downloader
      .download({
        label: 'the GLB (glb) of session SESSION_1',
        url: 'http://127.0.0.1:1/model.glb',
        cacheDir: dir,
        partPath: join(dir, 'model.part'),
        known: { etag: '"e1"', size: 1 << 20, sha256: null, bytesDone: 300 * 1024 },
        onStarted: () => {},
        onCheckpoint: () => {},
        signal: AbortSignal.abort(),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).message).toBe(
      'The download of the GLB (glb) of session SESSION_1 was cancelled; it resumes from 300 KiB next time.',
    );
  });
});
