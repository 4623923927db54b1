// A damaged database file is kept aside, never overwritten and never deleted: renamed (with its -wal and -shm)
// to `<name>.damaged-<UTC time>`, so that what SQLite can still read there can be salvaged into a new database
// (`asset-studio doctor`, salvage.ts). While such a copy is there and no database has replaced it, nothing
// makes a new empty one in its place: the library would look empty with no word.
//
// A zero-length file is a valid empty database to SQLite. It is taken for a damaged one when the data folder
// was used before (its download cache folder holds the cache's marker, or the database's -wal file is beside
// it): the database is made and migrated before anything else is written there. In a fresh folder it is a
// new database left empty by a crash, and is migrated as usual.
import { existsSync, linkSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { forgetClose } from './clean-close.ts';

/** The suffix of a copy kept aside, e.g. `asset-studio.db.damaged-20261127T101500Z`. */
const DAMAGED = '.damaged-';
/** The marker the download cache keeps in the folder it owns (main/cache/folder.ts), in its default place. */
const CACHE_MARKER = join('cache', '.asset-studio-cache');

/** Renames the database and its -wal and -shm files aside; returns the new name of the database. */
export function keepAside(path: string, now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 0; ; n++) {
    const aside = `${path}${DAMAGED}${stamp}${n === 0 ? '' : `-${n}`}`;
    try {
      linkSync(path, aside); // EEXIST rather than over a copy already kept
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') continue;
      throw error;
    }
    unlinkSync(path);
    forgetClose(path);
    for (const suffix of ['-wal', '-shm']) {
      if (!existsSync(path + suffix)) continue;
      linkSync(path + suffix, aside + suffix);
      unlinkSync(path + suffix);
    }
    return aside;
  }
}

/** The copies of this database kept aside, the newest last. */
export function damagedCopies(path: string): string[] {
  const name = `${basename(path)}${DAMAGED}`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(name) && !n.endsWith('-wal') && !n.endsWith('-shm'))
    .sort()
    .map((n) => join(dirname(path), n));
}

/** True when the file is there with no byte in a data folder that was used before (see the top of this file). */
export function isEmptiedDatabase(path: string): boolean {
  try {
    if (statSync(path).size !== 0) return false;
  } catch {
    return false;
  }
  return existsSync(`${path}-wal`) || existsSync(join(dirname(path), CACHE_MARKER));
}
