// Whether the database file is as its last connection left it when it closed. The full structure check
// (PRAGMA quick_check: every page of every table and index, a scan that grows with the library) runs at open
// only when it may not be: after an unclean shutdown (a process ended with the database open: its -wal file is
// still there), when anything else changed the file since (its size, time or inode differ from the record the
// last close wrote, `<name>-closed`), or with no record. Damage that appears in a file nobody touched is met by
// SQLite at the read (SQLITE_CORRUPT: the app's store/guarded-handle.ts says it, naming `asset-studio doctor`;
// the engine reads every record of its engine.db at start anyway). For the app's database (main/store) and the
// engine's engine.db (main/engine/state.ts) alike; a database kept aside forgets its record (damaged-database.ts).
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import { jsonOf } from '../../shared/contract/common.ts';

const recordSchema = z.object({ size: z.string(), mtimeNs: z.string(), ino: z.string() }).strict();
type FileState = z.output<typeof recordSchema>;

const recordPath = (path: string) => `${path}-closed`;

function stateOf(path: string): FileState | undefined {
  try {
    const s = statSync(path, { bigint: true });
    return { size: String(s.size), mtimeNs: String(s.mtimeNs), ino: String(s.ino) };
  } catch {
    return undefined;
  }
}

/** True when the file is as the last close recorded it, and no connection is open or died open (no -wal file). */
export function unchangedSinceClose(path: string): boolean {
  if (path === ':memory:' || existsSync(`${path}-wal`)) return false;
  let text: string;
  try {
    text = readFileSync(recordPath(path), 'utf8');
  } catch {
    return false;
  }
  const recorded = jsonOf(recordSchema).safeParse(text); // a record cut short fails: the file is checked again
  const now = stateOf(path);
  return (
    recorded.success &&
    now !== undefined &&
    now.size === recorded.data.size &&
    now.mtimeNs === recorded.data.mtimeNs &&
    now.ino === recorded.data.ino
  );
}

/**
 * After a connection closed: when it was the last one (SQLite removed the -wal file), the file's state is
 * recorded for the next open. A record that cannot be written only means that open checks the file again.
 */
export function recordClose(path: string): void {
  if (path === ':memory:' || existsSync(`${path}-wal`)) return;
  const state = stateOf(path);
  if (state === undefined) return;
  try {
    writeFileSync(recordPath(path), `${JSON.stringify(state)}\n`, { mode: 0o600 });
  } catch {
    // a full disk or a folder made read-only: the next open checks the file
  }
}

/** Forgets the record (the file it describes was kept aside). */
export function forgetClose(path: string): void {
  rmSync(recordPath(path), { force: true });
}
