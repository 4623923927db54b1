// The cache deletes only what it wrote: it keeps its cache in a folder of its own (marked, or a subfolder
// of a chosen folder that holds other files), sweeps only the names it makes there, and keeps it private.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadCache } from '../../main/cache/download-cache.ts';
import {
  CACHE_MARKER,
  CACHE_SUBFOLDER,
  CacheFolderError,
  claimCacheFolder,
  cacheOwnerId,
} from '../../main/cache/folder.ts';
import { openDatabase, type Store } from '../../main/store/database.ts';
import { tempDir } from '../helpers.ts';

const HOUR = 60 * 60_000;
const OLD = new Date(Date.now() - 24 * HOUR);
const PART = `cache_${'0a'.repeat(10)}.part`;
const ORPHAN_BLOB = join('blobs', 'ff', 'f'.repeat(64));

const open: (Store | DownloadCache)[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await ('close' in thing && thing.close());
});

function store(dir = tempDir()): Store {
  const s = openDatabase(join(dir, 'asset-studio.db'));
  open.push(s);
  return s;
}

function cache(s: Store, dir: string, notice: (line: string) => void = () => undefined): DownloadCache {
  const c = new DownloadCache({ store: s, dir, notice });
  open.push(c);
  return c;
}

/** Files left a day ago: old enough for any sweep. */
function plant(root: string, files: string[]): string[] {
  return files.map((file) => {
    const path = join(root, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `someone's ${file}`);
    utimesSync(path, OLD, OLD);
    return path;
  });
}

describe('the cache folder', () => {
  it('never deletes files in a folder it did not make: a chosen folder with other files gets a subfolder, and gc leaves them alone', async () => {
    const chosen = join(tempDir(), 'Projects');
    const theirs = plant(chosen, [
      'tmp/render.part',
      join('tmp', PART),
      'blobs/2024/holiday.jpg',
      ORPHAN_BLOB,
      'notes.txt',
    ]);
    const c = cache(store(), chosen);
    expect(c.dir).toBe(join(chosen, CACHE_SUBFOLDER));
    expect(existsSync(join(chosen, CACHE_MARKER))).toBe(false);

    const report = await c.gc();
    expect(report.orphans).toBe(0);
    for (const path of theirs) expect(existsSync(path)).toBe(true);
  });

  it('in its own folder, sweeps only the names it makes (blobs/<aa>/<sha256>, tmp/<entry id>.part)', async () => {
    const c = cache(store(), join(tempDir(), 'cache'));
    const [part, blob] = plant(c.dir, [join('tmp', PART), ORPHAN_BLOB]);
    const dropped = plant(c.dir, [
      'tmp/notes.txt',
      'tmp/cache_gone.part',
      'blobs/ab/holiday.jpg',
      `blobs/ab/${'c'.repeat(64)}`,
      'readme.txt',
    ]);

    const report = await c.gc();
    expect(report.orphans).toBe(2);
    expect(existsSync(part!)).toBe(false);
    expect(existsSync(blob!)).toBe(false);
    for (const path of dropped) expect(existsSync(path)).toBe(true);
  });

  it('sweeps nothing once its marker is gone (the folder may not be its own any more)', async () => {
    const c = cache(store(), join(tempDir(), 'cache'));
    const files = plant(c.dir, [join('tmp', PART), ORPHAN_BLOB]);
    rmSync(join(c.dir, CACHE_MARKER));
    expect((await c.gc()).orphans).toBe(0);
    for (const path of files) expect(existsSync(path)).toBe(true);
  });

  it('takes a new or empty folder, marking it; keeps a cache from before the marker where it is', () => {
    const s = store();
    const owner = cacheOwnerId(s);
    expect(cacheOwnerId(s)).toBe(owner); // made once

    const fresh = join(tempDir(), 'new', 'cache');
    expect(claimCacheFolder(fresh, owner)).toBe(fresh);
    expect(JSON.parse(readFileSync(join(fresh, CACHE_MARKER), 'utf8'))).toMatchObject({ app: 'Asset Studio', owner });

    const empty = tempDir();
    writeFileSync(join(empty, '.DS_Store'), ''); // OS litter does not count
    expect(claimCacheFolder(empty, owner)).toBe(empty);

    const unmarked = join(tempDir(), 'cache');
    plant(unmarked, [join('tmp', PART), ORPHAN_BLOB]);
    expect(claimCacheFolder(unmarked, owner)).toBe(unmarked);
    expect(existsSync(join(unmarked, CACHE_MARKER))).toBe(true);
  });

  it("uses a subfolder of another data folder's cache, and refuses a file or a folder with no room of its own", () => {
    const theirs = cacheOwnerId(store());
    const mine = cacheOwnerId(store());
    const shared = join(tempDir(), 'cache');
    expect(claimCacheFolder(shared, theirs)).toBe(shared);
    expect(claimCacheFolder(shared, mine)).toBe(join(shared, CACHE_SUBFOLDER));

    const file = join(tempDir(), 'cache');
    writeFileSync(file, '');
    expect(() => claimCacheFolder(file, mine)).toThrow(CacheFolderError);
    expect(() => claimCacheFolder(file, mine)).toThrow(
      `The cache folder ${file} is a file, not a folder. Move that file away, or choose another cache folder in the settings.`,
    );

    const busy = tempDir();
    plant(busy, ['notes.txt', join(CACHE_SUBFOLDER, 'notes.txt')]);
    let error: unknown;
    try {
      claimCacheFolder(busy, mine);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CacheFolderError);
    expect(error).toMatchObject({ exitCode: 2, path: busy });
    expect((error as Error).message).toMatch(/holds other files.*choose an empty folder/);
    expect(readdirSync(busy).sort()).toEqual([CACHE_SUBFOLDER, 'notes.txt']);
  });

  it.skipIf(process.platform === 'win32')(
    'is private: its folders 0700 and files 0600, an existing one tightened with one line',
    () => {
      const s = store();
      const dir = join(tempDir(), 'cache');
      const c = cache(s, dir);
      expect(statSync(c.dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(c.dir, CACHE_MARKER)).mode & 0o777).toBe(0o600);

      const [blob] = plant(dir, [ORPHAN_BLOB]);
      chmodSync(dir, 0o755);
      chmodSync(dirname(blob!), 0o755);
      chmodSync(blob!, 0o644);
      const lines: string[] = [];
      cache(s, dir, (line) => lines.push(line));
      expect([statSync(dir).mode & 0o777, statSync(dirname(blob!)).mode & 0o777, statSync(blob!).mode & 0o777]).toEqual(
        [0o700, 0o700, 0o600],
      );
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(`^The cache folder ${dir} could be read by other users \\(4 items\\): made it private`),
        ),
      ]);
    },
  );
});
