// Which failed writes mean a full disk, for every part of main: ENOSPC and EDQUOT from the system, SQLITE_FULL
// from the database, and an I/O error (EIO, SQLITE_IOERR: SQLite says "disk I/O error" when it cannot grow its
// -shm or -wal file) when the folder's file system has (almost) no room left. Each becomes a DiskFullError
// (shared/errors.ts) naming the folder, what could not be written and what to free.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { DISK_FULL_CODES, DiskFullError } from '../../shared/errors.ts';

// Primary SQLite result codes: https://www.sqlite.org/rescode.html
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
/** Below this much room an I/O error on a write is taken for a full disk. */
const NEARLY_FULL_BYTES = 1 << 20;

/**
 * The DiskFullError of `error` when it says the disk holding `folder` is full (or already is one), else
 * undefined. `what`: what could not be written, for the message.
 */
export function asDiskFull(error: unknown, folder: string, what: string): DiskFullError | undefined {
  if (error instanceof DiskFullError) return error;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; errcode?: unknown };
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const sqlite = typeof fields.errcode === 'number' ? fields.errcode & 0xff : undefined;
  if ((code !== undefined && DISK_FULL_CODES.has(code)) || sqlite === SQLITE_FULL)
    return new DiskFullError(folder, what, error);
  if ((code === 'EIO' || sqlite === SQLITE_IOERR) && hasNoRoom(folder)) return new DiskFullError(folder, what, error);
  return undefined;
}

/**
 * A full disk that reached a caller with no folder of its own to name (the CLI's error report, the web host's
 * process handlers): the DiskFullError, naming the folder of the file the system error names when it does.
 */
export function diskFullOf(error: unknown): DiskFullError | undefined {
  if (error instanceof DiskFullError) return error;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; path?: unknown };
  if (typeof fields.code !== 'string' || !DISK_FULL_CODES.has(fields.code)) return undefined;
  const folder = typeof fields.path === 'string' ? dirname(fields.path) : 'the data folder';
  const message = error instanceof Error ? error.message : String(error);
  return new DiskFullError(folder, `a file (${message})`, error);
}

/** True when the file system of `path` (or of its nearest existing parent) has less than 1 MiB free for this user. */
function hasNoRoom(path: string): boolean {
  for (let at = path; ; at = dirname(at)) {
    try {
      const fs = statfsSync(at);
      return fs.bavail * fs.bsize < NEARLY_FULL_BYTES;
    } catch {
      if (dirname(at) === at) return false;
    }
  }
}
