// The database on a full disk (#26 item 8): SQLite's SQLITE_FULL ("database or disk is full") becomes a
// DiskFullError naming the data folder, thrown by the one call that wrote. The disk is made full for SQLite
// alone with PRAGMA max_page_count (a limit of the connection: the same SQLITE_FULL as a full disk).
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DiskFullError, mappingOf } from '../../shared/errors.ts';
import { databasePath, openDatabase } from '../../main/store/database.ts';
import { MIGRATIONS } from '../../main/store/migrations.ts';
import { describeFailure } from '../../main/cli/error-report.ts';
import { tempDir } from './temp.ts';

it('a write that does not fit is a DiskFullError naming the folder; reads and the next writes go on', () => {
  const dir = tempDir();
  const store = openDatabase(databasePath(dir), { migrations: [...MIGRATIONS, 'PRAGMA max_page_count = 40;'] });
  try {
    let error: unknown;
    for (let i = 0; i < 1000 && error === undefined; i++) {
      try {
        store.jobs.insert({ kind: 'text_to_image', label: 'x'.repeat(2000), remoteId: `tti_${i}`, now: i });
      } catch (caught) {
        error = caught;
      }
    }
    expect(error).toBeInstanceOf(DiskFullError);
    expect((error as DiskFullError).folder).toBe(dir);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^The disk holding ${dir} is full: the local database \\(asset-studio.db\\) could not be written. Free some space`,
      ),
    );
    expect(mappingOf('disk-full')).toEqual({ bridgeCode: 'disk-full', exitCode: 1, httpStatus: 507 });
    expect(describeFailure(error)).toMatchObject({ code: 'disk-full', exitCode: 1 });
    expect(store.jobs.list({}).length).toBeGreaterThan(0); // reading still works
  } finally {
    store.close();
  }
});

it('the CLI names a raw ENOSPC from a module that did not say more as disk-full, with the folder of its file', () => {
  const raw = Object.assign(new Error("ENOSPC: no space left on device, open '/data/cache/tmp/x.lock'"), {
    code: 'ENOSPC',
    path: join('/data/cache/tmp', 'x.lock'),
  });
  const failure = describeFailure(raw);
  expect(failure.code).toBe('disk-full');
  expect(failure.message).toMatch(/^The disk holding \/data\/cache\/tmp is full: /);
});
