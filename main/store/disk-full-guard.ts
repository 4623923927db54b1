// The database handle every repository uses, with its failures on a full disk (SQLITE_FULL, or "disk I/O
// error" when the folder has no room left) turned into a DiskFullError naming the data folder: each store call
// that writes then fails as one action, in words, and the caller (the tracker, a command) goes on or reports it.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { asDiskFull } from '../durable/disk-full.ts';

const WHAT = 'the local database (asset-studio.db)';

/** `db` with every method (and every prepared statement's) throwing a DiskFullError on a full disk of `folder`. */
export function guardDiskFull(db: DatabaseSync, folder: string): DatabaseSync {
  return guard(db, folder, (name, value) =>
    name === 'prepare' ? guard(value as StatementSync, folder, () => undefined) : undefined,
  );
}

function guard<T extends object>(
  target: T,
  folder: string,
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
          throw asDiskFull(error, folder, WHAT) ?? error;
        }
        return wrapResult(name, result) ?? result;
      };
    },
  });
}
