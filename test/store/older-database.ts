// A database file as an older version of the app left it, for the migration tests.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect } from 'vitest';
import { MIGRATIONS } from '../../main/store/migrations.ts';
import { tempDir } from './temp.ts';

/**
 * The path of a database at `version` (its first `version` migrations run, as that version left it; this
 * version's repositories need the newest to open it) holding the rows `insertSql` adds.
 */
export function olderDatabase(version: number, insertSql: string): string {
  const path = join(tempDir(), 'a.db');
  const raw = new DatabaseSync(path);
  for (const migration of MIGRATIONS.slice(0, version)) raw.exec(migration);
  raw.exec(`PRAGMA user_version = ${version}`);
  raw.exec(insertSql);
  expect((raw.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(version);
  raw.close();
  return path;
}
