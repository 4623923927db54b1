// A SQLite database another process keeps locked past the wait (busy_timeout): SQLITE_BUSY or SQLITE_LOCKED,
// "database is locked". For every database of main (the app's asset-studio.db, main/store; the engine's engine.db,
// main/engine/state.ts): said as a DatabaseLockedError naming the file and what to do, never as SQLite's bare words.
import { AppError } from '../../shared/errors.ts';

// Primary SQLite result codes of a lock held by another connection.
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/** True for SQLite's "locked" result codes. */
export function isLocked(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && [SQLITE_BUSY, SQLITE_LOCKED].includes(code & 0xff);
}

/** The database at `path` stayed locked by another process for longer than the wait. */
export class DatabaseLockedError extends AppError<'database-locked'> {
  readonly path: string;

  constructor(path: string, cause?: unknown) {
    super(
      'database-locked',
      `The database ${path} is locked by another process (SQLite says: database is locked). Another Asset Studio ` +
        'command or app on this data folder is writing it, or a program holds it open (a SQLite browser, a backup or ' +
        'sync tool). Wait for that command to end or close that program, then run this again. Nothing was changed.',
      { cause },
    );
    this.path = path;
  }
}

/** `error` as a DatabaseLockedError when it is SQLite's lock, else itself. */
export function asLocked(error: unknown, path: string): unknown {
  return isLocked(error) ? new DatabaseLockedError(path, error) : error;
}
