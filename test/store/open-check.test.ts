// The full structure check (PRAGMA quick_check) at open runs only when the file may have changed since its last
// clean close (main/durable/clean-close.ts): not at every start, where it is a scan that grows with the library.
import { closeSync, existsSync, openSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/database.ts';
import { DatabaseCorruptError } from '../../main/store/errors.ts';
import { tempDir } from '../helpers.ts';

const T = 1_700_000_000; // a whole second: set again exactly after the file is changed

/** A database of 300 jobs closed cleanly, its mtime T, and where its jobs table's root page is. */
function closedDatabase(): { path: string; page: { offset: number; size: number } } {
  const path = join(tempDir(), 'asset-studio.db');
  const store = openDatabase(path);
  for (let i = 0; i < 300; i++)
    store.jobs.insert({ kind: 'text_to_image', label: `job ${i} ${'x'.repeat(200)}`, remoteId: `tti_${i}`, now: i });
  store.close();
  const db = new DatabaseSync(path);
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'jobs'").get() as {
    rootpage: number;
  };
  const { page_size: size } = db.prepare('PRAGMA page_size').get() as { page_size: number };
  db.close();
  utimesSync(path, T, T);
  openDatabase(path).close(); // changed since its close (the time set): checked, and its close recorded again
  return { path, page: { offset: (rootpage - 1) * size, size } };
}

/** Damage that keeps the file's size and time: what a start finds when nothing touched the file. */
function ruinKeepingTime(path: string, page: { offset: number; size: number }): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(page.size, 0x5a), 0, page.size, page.offset);
  closeSync(fd);
  utimesSync(path, T, T);
}

describe('the check of the database at open', () => {
  it('is not run when the file is as its last clean close left it: damage is then met at the read', () => {
    const { path, page } = closedDatabase();
    ruinKeepingTime(path, page);
    const store = openDatabase(path);
    expect(() => store.jobs.list({})).toThrow(DatabaseCorruptError);
    store.close();
  });

  it('runs after an unclean shutdown (the -wal file of a connection that never closed): damage refused at open', () => {
    const { path, page } = closedDatabase();
    ruinKeepingTime(path, page);
    writeFileSync(`${path}-wal`, '');
    let error: unknown;
    try {
      openDatabase(path).close();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseCorruptError);
    expect((error as DatabaseCorruptError).keptAs).toMatch(/asset-studio\.db\.damaged-/);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}-closed`)).toBe(false); // the record of the file kept aside goes with it
  });

  it('runs when the file changed since its close (its size or time), or when no close was recorded', () => {
    const { path, page } = closedDatabase();
    ruinKeepingTime(path, page);
    utimesSync(path, T + 1, T + 1);
    expect(() => openDatabase(path)).toThrow(DatabaseCorruptError);

    const other = closedDatabase();
    ruinKeepingTime(other.path, other.page);
    writeFileSync(`${other.path}-closed`, '{"size":');
    expect(() => openDatabase(other.path)).toThrow(DatabaseCorruptError);
  });
});
