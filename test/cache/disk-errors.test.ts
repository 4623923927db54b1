// A file system error while caching is described by what it is: only ENOSPC / EDQUOT mean a full disk
// (#24 item 8: a rename that failed with ENOENT, another process having moved the file, said "Free some disk space").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { adoptBlob, blobRelativePath } from '../../main/cache/blobs.ts';
import { type AttemptState, classify, DownloadError, Retry } from '../../main/cache/downloader.ts';
import { tempDir } from '../helpers.ts';
import { sha256File } from './helpers.ts';

const req = { label: 'the GLB (glb) of session S', cacheDir: '/data/cache' } as Parameters<typeof classify>[0];
const fsError = (code: string, syscall = 'rename') =>
  Object.assign(new Error(`${code}: failed, ${syscall} '/data/cache/tmp/x.part' -> '/data/cache/blobs/ab/abc'`), {
    code,
    syscall,
  });
const state = (): AttemptState => ({ url: 'http://x/y', etag: null, size: null, trusted: 0, resumed: false });

it('a rename failing with ENOENT is tried once more from the start, then reported without a word of disk space', () => {
  const s = state();
  const first = classify(req, s, fsError('ENOENT'));
  expect(first).toBeInstanceOf(Retry);
  expect((first as Retry).restart).toBe(true);
  const second = classify(req, s, fsError('ENOENT'));
  expect(second).toBeInstanceOf(DownloadError);
  expect(second.message).not.toMatch(/disk space/i);
  expect(second.message).toMatch(/ENOENT/);
});

it.each(['ENOSPC', 'EDQUOT'])('%s is a full disk', (code) => {
  const error = classify(req, { ...state(), vanished: true }, fsError(code, 'write'));
  expect(error).toBeInstanceOf(DownloadError);
  expect(error.message).toMatch(
    /^The disk holding \/data\/cache is full: the GLB \(glb\) of session S could not be written\. Free some space on that disk/,
  );
});

it.each(['EACCES', 'EPERM', 'EROFS', 'EIO', 'EEXIST'])('%s is not a full disk', (code) => {
  const error = classify(req, { ...state(), vanished: true }, fsError(code));
  expect(error).toBeInstanceOf(DownloadError);
  expect(error.message).not.toMatch(/disk space|is full|free some/i);
});

/** In a new cache folder (removed when the test ends), a part file of the bytes `mine`, and a file of the bytes `there` already at the place of its blob. */
function partAndBlob(mine: string, there: string): { cache: string; file: string; sha256: string; target: string } {
  const cache = tempDir('asset-studio-adopt-');
  const file = join(cache, 'mine.part');
  writeFileSync(file, mine);
  const sha256 = sha256File(file);
  const target = join(cache, blobRelativePath(sha256));
  mkdirSync(join(target, '..'), { recursive: true });
  writeFileSync(target, there);
  return { cache, file, sha256, target };
}

it('a blob another process already put in place (same size and SHA-256) counts as written', async () => {
  const { cache, file, sha256, target } = partAndBlob('the same bytes', 'the same bytes');
  expect(await adoptBlob(cache, file, sha256)).toBe(blobRelativePath(sha256));
  expect(sha256File(target)).toBe(sha256);
});

it('a blob of other bytes under the name is replaced, not trusted', async () => {
  const { cache, file, sha256, target } = partAndBlob('the right bytes', 'damaged bytes!!');
  await adoptBlob(cache, file, sha256);
  expect(sha256File(target)).toBe(sha256);
});
