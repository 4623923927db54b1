// The database handle every repository uses, its failures said in words: on a full disk (SQLITE_FULL, or
// "disk I/O error" when the folder has no room left) a DiskFullError naming the data folder, and on damage
// found by a query (SQLITE_CORRUPT, SQLITE_NOTADB: "database disk image is malformed") a DatabaseCorruptError
// naming the file and `asset-studio doctor`; on a lock another process held past the wait ("database is locked") a
// DatabaseLockedError naming the file and what to do. Each store call fails as one action; the caller goes on or
// says it.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { basename, dirname } from 'node:path';
import { isCorruption } from '../durable/damaged-database.ts';
import { asDiskFull } from '../durable/disk-full.ts';
import { DatabaseLockedError, isLocked } from '../durable/locked-database.ts';
import { DatabaseCorruptError } from './errors.ts';

/** `db` with every method (and every prepared statement's) failing in words (see above). */
export function guardFailures(db: DatabaseSync, path: string): DatabaseSync {
  const said = (error: unknown) =>
    isCorruption(error)
      ? new DatabaseCorruptError(path, error)
      : isLocked(error)
        ? new DatabaseLockedError(path, error)
        : (asDiskFull(error, dirname(path), `the local database (${basename(path)})`) ?? error);
  return guard(db, said, (name, value) =>
    name === 'prepare' ? guard(value as StatementSync, said, () => undefined) : undefined,
  );
}

function guard<T extends object>(
  target: T,
  said: (error: unknown) => unknown,
  wrapResult: (name: string | symbol, value: unknown) => unknown,
): T {
  return new Proxy(target, {
    get(object, name) {
      const value: unknown = Reflect.get(object, name, object);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(object, args);
        } catch (error) {
          throw said(error);
        }
        return wrapResult(name, result) ?? result;
      };
    },
  });
}
