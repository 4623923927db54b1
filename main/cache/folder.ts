// The cache folder is the cache's own: it deletes files in it (evicted blobs, stray partial downloads), so it
// must never be a folder holding anything else. A folder becomes the cache's when the cache creates it, or
// finds it empty, and writes its marker there (`.asset-studio-cache`, naming the database that owns it). A
// folder with other files is never taken: the cache uses a subfolder of it instead. In its folder the cache
// only ever touches the names it makes: `blobs/<aa>/<sha256>` and `tmp/<entry id>.part`.
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import {
  CACHE_MARKER,
  checkWritable,
  createFolder,
  makePrivate,
  privateNotice,
  PRIVATE_FILE_MODE,
  statFolder,
  stderrNotice,
  type FolderRole,
  type Notice,
} from '../store/data-folder.ts';
import type { Store } from '../store/database.ts';
import { DataFolderError } from '../store/errors.ts';

export { CACHE_MARKER };
/** Used inside a chosen folder that holds other files. */
export const CACHE_SUBFOLDER = 'Asset Studio Cache';
/** The setting holding the id this database writes into the marker of its cache folder. */
export const CACHE_OWNER_SETTING = 'cacheOwner';

const OWNER = /^[0-9a-f]{32}$/;
const BLOB_FOLDER = /^[0-9a-f]{2}$/;
const BLOB = /^[0-9a-f]{64}$/;
/**
 * `tmp/<entry id>.part`, or `tmp/<entry id>.<pid>-<random>.part` for a writer that did not hold the entry's
 * lock (`tmp/<entry id>.lock`): entry ids are `cache_` and 20 hex digits (store/sql.ts newId).
 */
const PART = /^cache_[0-9a-f]{20}(\.\d+-[0-9a-f]{8})?\.part$/;
const LOCK = /^cache_[0-9a-f]{20}\.lock$/;
/** Files the OS drops into any folder it shows: they do not make a folder "not empty". */
const OS_LITTER = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini', '.directory']);

/** The chosen cache folder cannot be used. The message says which folder and what to do. */
export class CacheFolderError extends DataFolderError {
  constructor(path: string, message: string, cause?: unknown) {
    super(path, message, cause, 'cache-folder');
  }
}

const CACHE_FOLDER: FolderRole = {
  name: 'The cache folder',
  instead: 'choose another cache folder in the settings',
  fail: (path, message, cause) => new CacheFolderError(path, message, cause),
};

/** The id of the database's cache, made once and kept in its settings. */
export function cacheOwnerId(store: Store): string {
  return store.transaction(() => {
    const known = store.settings.get(CACHE_OWNER_SETTING, z.string().regex(OWNER));
    if (known !== undefined) return known;
    const id = randomBytes(16).toString('hex');
    store.settings.set(CACHE_OWNER_SETTING, id);
    return id;
  });
}

/**
 * The folder the cache of `owner` uses for the `chosen` location: `chosen` itself when the cache made it,
 * owns it (its marker), or finds it empty (or holding only a cache of the layout from before the marker);
 * otherwise `chosen/Asset Studio Cache`, on the same terms. Made private (0700 / 0600, said through
 * `notice`). Throws CacheFolderError when neither can be used or the folder is a file or read-only.
 */
export function claimCacheFolder(chosen: string, owner: string, options: { notice?: Notice | undefined } = {}): string {
  const dir = resolve(chosen);
  if (claim(dir, owner)) return finish(dir, options.notice);
  const sub = join(dir, CACHE_SUBFOLDER);
  if (claim(sub, owner)) return finish(sub, options.notice);
  throw new CacheFolderError(
    dir,
    `The cache folder ${dir} holds other files, and its subfolder "${CACHE_SUBFOLDER}" is not free either (other files, or the cache of another data folder). ` +
      'Asset Studio keeps its cache only in a folder of its own, because it deletes files there: choose an empty folder (or a new one) for the cache.',
  );
}

/** True when `dir` holds the marker of `owner`'s cache. */
export function ownsCacheFolder(dir: string, owner: string): boolean {
  try {
    const path = join(dir, CACHE_MARKER);
    const info = lstatSync(path);
    if (!info.isFile() || info.size > 64 * 1024) return false;
    const marker = JSON.parse(readFileSync(path, 'utf8')) as { app?: unknown; owner?: unknown };
    return marker.app === 'Asset Studio' && marker.owner === owner;
  } catch {
    return false;
  }
}

/** A blob's place: `blobs/<aa>/<sha256>` with `aa` its first two digits. */
export function isBlobName(folder: string, name: string): boolean {
  return BLOB_FOLDER.test(folder) && BLOB.test(name) && name.startsWith(folder);
}

/** A partial download's name in `tmp/`. */
export function isPartName(name: string): boolean {
  return PART.test(name);
}

function finish(dir: string, notice: Notice | undefined): string {
  const tightened = makePrivate(dir, CACHE_FOLDER, [CACHE_MARKER, 'blobs', 'tmp']);
  if (tightened > 0) (notice ?? stderrNotice)(privateNotice('The cache folder', dir, tightened));
  return dir;
}

/** Makes `dir` the cache's (true), or finds it holds something else (false). Throws when it cannot be used. */
function claim(dir: string, owner: string): boolean {
  if (statFolder(dir, CACHE_FOLDER) === undefined) {
    createFolder(dir, CACHE_FOLDER);
    return writeMarker(dir, owner);
  }
  checkWritable(dir, CACHE_FOLDER);
  if (ownsCacheFolder(dir, owner)) return true;
  const names = readdirSync(dir).filter((n) => !OS_LITTER.has(n));
  if (names.includes(CACHE_MARKER)) return false; // another database's cache, or not a marker of ours
  if (names.length > 0 && !isUnmarkedCache(dir, names)) return false;
  return writeMarker(dir, owner);
}

function writeMarker(dir: string, owner: string): boolean {
  const marker = {
    app: 'Asset Studio',
    owner,
    note:
      'This folder is the download cache of Asset Studio. Asset Studio deletes the files it wrote here (blobs/, tmp/) when it no longer needs them; ' +
      'keep nothing else in this folder. Delete this file only together with the whole folder.',
  };
  try {
    writeFileSync(join(dir, CACHE_MARKER), `${JSON.stringify(marker, null, 2)}\n`, {
      mode: PRIVATE_FILE_MODE,
      flag: 'wx',
    });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return ownsCacheFolder(dir, owner); // another process of ours was first
    throw CACHE_FOLDER.fail(
      dir,
      `The cache folder ${dir} cannot be written (${(error as Error).message}). Make it writable for you, or ${CACHE_FOLDER.instead}.`,
      error,
    );
  }
}

/**
 * A cache made before the marker existed (the default `cache/` of a data folder): nothing but `blobs/`
 * and `tmp/`, holding only names the cache makes. Taken over as it is, so its outputs stay cached.
 */
function isUnmarkedCache(dir: string, names: string[]): boolean {
  const folder = (path: string) => lstatSync(path).isDirectory();
  const file = (path: string) => lstatSync(path).isFile();
  const inside = (path: string) => readdirSync(path).filter((n) => !OS_LITTER.has(n));
  try {
    for (const name of names) {
      const path = join(dir, name);
      if (!folder(path)) return false;
      if (name === 'tmp') {
        if (!inside(path).every((part) => (isPartName(part) || LOCK.test(part)) && file(join(path, part))))
          return false;
      } else if (name === 'blobs') {
        for (const sub of inside(path)) {
          const subPath = join(path, sub);
          if (!BLOB_FOLDER.test(sub) || !folder(subPath)) return false;
          if (!inside(subPath).every((blob) => isBlobName(sub, blob) && file(join(subPath, blob)))) return false;
        }
      } else return false;
    }
    return true;
  } catch {
    return false;
  }
}
