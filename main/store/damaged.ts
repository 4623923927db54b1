// A damaged database file is kept aside, never overwritten and never deleted: renamed (with its -wal and -shm)
// to `<name>.damaged-<UTC time>` (main/durable/damaged-database.ts, shared with the engine's engine.db), so that
// what SQLite can still read there can be salvaged into a new database (`asset-studio doctor`, salvage.ts).
// While such a copy is there and no database has replaced it, nothing
// makes a new empty one in its place: the library would look empty with no word.
//
// A zero-length file is a valid empty database to SQLite. It is taken for a damaged one when the data folder
// was used before (its download cache folder holds the cache's marker, or the database's -wal file is beside
// it): the database is made and migrated before anything else is written there. In a fresh folder it is a
// new database left empty by a crash, and is migrated as usual.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_MARKER, DEFAULT_CACHE_FOLDER } from './data-folder.ts';

/** True when the file is there with no byte in a data folder that was used before (see the top of this file). */
export function isEmptiedDatabase(path: string): boolean {
  try {
    if (statSync(path).size !== 0) return false;
  } catch {
    return false;
  }
  return existsSync(`${path}-wal`) || existsSync(join(dirname(path), DEFAULT_CACHE_FOLDER, CACHE_MARKER));
}
