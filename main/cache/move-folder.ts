// Moving the cache to another folder (Settings → cache folder): the cached files go with it, so every output
// shown complete is still there. Copy first (each file to a part name in the new folder's tmp/, checked against
// its SHA-256, then moved into place durably), switch, then remove the old copies. A copy that fails removes what it
// copied and leaves the old folder in use; an entry whose file is missing from the old folder is marked failed
// (downloaded again when next needed), never shown complete in a folder that lacks it.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { Store } from '../store/database.ts';
import { adoptBlob, hashFile } from './blobs.ts';
import { CacheFolderError, isBlobName, isPartName, ownsCacheFolder } from './folder.ts';

export interface MoveProgress {
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
}

export interface CacheMove {
  /** Blob paths (relative, `blobs/<aa>/<sha256>`) now in the new folder, copied or found there. */
  readonly copied: ReadonlySet<string>;
  /** Entries whose file was missing from the old folder: now failed. */
  readonly missing: CacheEntry[];
}

interface Blob {
  path: string;
  sha256: string;
  bytes: number;
  entries: CacheEntry[];
}

/**
 * Copies every complete entry's blob from `from` to `to` (both cache folders of this database), skipping those
 * in `done`. Throws CacheFolderError, with the copies of this call removed, when one cannot be copied.
 */
export async function copyCacheFiles(
  store: Store,
  from: string,
  to: string,
  options: { done?: ReadonlySet<string>; onProgress?: (p: MoveProgress) => void } = {},
): Promise<CacheMove> {
  const blobs = blobsOf(store.cache.list()).filter((b) => !options.done?.has(b.path));
  const totalBytes = blobs.reduce((n, b) => n + b.bytes, 0);
  const copied = new Set<string>(options.done);
  const made: string[] = [];
  const missing: CacheEntry[] = [];
  let bytes = 0;
  let files = 0;
  for (const blob of blobs) {
    const target = join(to, blob.path);
    if ((await hashFile(target).catch(() => undefined)) !== blob.sha256) {
      let outcome: 'copied' | 'missing';
      try {
        outcome = await copyOne(join(from, blob.path), to, blob);
      } catch (error) {
        for (const path of made) await rm(path, { force: true });
        const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new CacheFolderError(
          to,
          `The cache could not be moved to ${to}: copying ${blob.path} failed (${why}) after ${files} of ${blobs.length} file(s). ` +
            `Nothing was changed: the cache stays in ${from}, and the copies made were removed. Free space or fix the folder, or choose another one.`,
          error,
        );
      }
      if (outcome === 'missing') {
        for (const e of blob.entries)
          missing.push(
            store.cache.markFailed(
              e.id,
              `The cached copy of the ${e.kind} output of session ${e.sessionId} was missing or damaged when the cache folder moved; it is downloaded again when next needed.`,
              0,
            ),
          );
        continue;
      }
      made.push(target);
    }
    copied.add(blob.path);
    files++;
    bytes += blob.bytes;
    options.onProgress?.({ files, totalFiles: blobs.length, bytes, totalBytes });
  }
  return { copied, missing };
}

/**
 * Copies one blob through a part file of `to/tmp/` (swept if a crash leaves it), checks the copy's SHA-256 (one
 * read of the source, one of the copy) and moves it into place durably (blobs.ts adoptBlob: synced, as every
 * blob, before the old copy may be removed). `missing` when the source is gone or is not the blob it should be.
 */
async function copyOne(source: string, to: string, blob: Blob): Promise<'copied' | 'missing'> {
  const part = join(to, 'tmp', `${blob.entries[0]!.id}.${process.pid}-${randomBytes(4).toString('hex')}.part`);
  try {
    await mkdir(dirname(part), { recursive: true, mode: 0o700 });
    try {
      await copyFile(source, part);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'; // the folder exists: the source is gone
      throw error;
    }
    if ((await hashFile(part)) !== blob.sha256) return 'missing'; // damaged in the old folder
    await adoptBlob(to, part, blob.sha256);
    return 'copied';
  } finally {
    await rm(part, { force: true });
  }
}

/**
 * Removes from the old folder the files the cache made there (blobs, partial downloads) and the folders left
 * empty; only in a folder holding this cache's marker. Its marker stays: the folder can be chosen again.
 */
export async function removeOldCacheFiles(from: string, owner: string, blobPaths: Iterable<string>): Promise<void> {
  if (!ownsCacheFolder(from, owner)) return;
  for (const path of blobPaths) {
    const [top, folder, name] = path.split(/[\\/]/);
    if (top === 'blobs' && folder !== undefined && name !== undefined && isBlobName(folder, name))
      await rm(join(from, path), { force: true });
  }
  const tmp = join(from, 'tmp');
  for (const name of await readNames(tmp)) if (isPartName(name)) await rm(join(tmp, name), { force: true });
  for (const folder of await readNames(join(from, 'blobs'))) await rmdir(join(from, 'blobs', folder)).catch(() => {});
  for (const folder of [join(from, 'blobs'), tmp]) await rmdir(folder).catch(() => {}); // only when empty
}

function readNames(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

function blobsOf(entries: CacheEntry[]): Blob[] {
  const blobs = new Map<string, Blob>();
  for (const e of entries) {
    if (e.state !== 'complete' || e.blobPath === null || e.sha256 === null) continue;
    const blob = blobs.get(e.blobPath);
    if (blob) blob.entries.push(e);
    else blobs.set(e.blobPath, { path: e.blobPath, sha256: e.sha256, bytes: e.size ?? 0, entries: [e] });
  }
  return [...blobs.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
