import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../main/store/database.ts';
import { DatabaseCorruptError, DatabaseTooNewError } from '../../main/store/errors.ts';
import { MIGRATIONS } from '../../main/store/migrations.ts';
import { tempDir } from './temp.ts';

function pragma(path: string, name: string): unknown {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[name];
  } finally {
    db.close();
  }
}

function tables(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('openDatabase', () => {
  it('creates the folder and the schema from nothing, in WAL mode', () => {
    const path = databasePath(join(tempDir(), 'nested', 'data'));
    openDatabase(path).close();
    expect(pragma(path, 'user_version')).toBe(MIGRATIONS.length);
    expect(pragma(path, 'journal_mode')).toBe('wal');
    expect(tables(path)).toEqual(['cache_entries', 'job_reviews', 'jobs', 'journal', 'settings', 'webhook_deliveries']);
  });

  it.skipIf(process.platform === 'win32')(
    'makes a new database and its -wal and -shm files readable by their owner only (0600), its folder 0700',
    () => {
      const dir = join(tempDir(), 'new-data');
      const path = databasePath(dir);
      const store = openDatabase(path);
      try {
        store.settings.set('webhooks', { enabled: true, secret: 'whsec_not_for_other_users' }); // the WAL is written
        expect(statSync(dir).mode & 0o777).toBe(0o700);
        for (const file of [path, `${path}-wal`, `${path}-shm`])
          expect({ file, mode: (statSync(file).mode & 0o777).toString(8) }).toEqual({ file, mode: '600' });
      } finally {
        store.close();
      }
    },
  );

  it('migrates an empty (zero-byte) file', () => {
    const path = join(tempDir(), 'empty.db');
    writeFileSync(path, '');
    openDatabase(path).close();
    expect(pragma(path, 'user_version')).toBe(MIGRATIONS.length);
  });

  it('keeps data across re-opening', () => {
    const path = join(tempDir(), 'a.db');
    const first = openDatabase(path);
    const job = first.jobs.insert({ kind: 'text_to_image', label: 'a red chair', remoteId: 'tti_1', now: 1000 });
    first.settings.set('theme', 'dark');
    first.close();
    first.close(); // closing twice is harmless

    const second = openDatabase(path);
    expect(second.jobs.get(job.id)).toEqual(job);
    expect(second.settings.all()).toEqual({ theme: 'dark' });
    second.close();
  });

  it('turns foreign keys on', () => {
    const store = openDatabase(':memory:');
    expect(() =>
      store.jobs.insert({ kind: 'animation_prompt', label: 'wave', parentId: 'job_missing', now: 1 }),
    ).toThrow(/FOREIGN KEY/);
    store.close();
  });

  it('refuses a database from a newer version and leaves it byte-for-byte unchanged', () => {
    const dir = tempDir();
    const path = join(dir, 'a.db');
    const store = openDatabase(path);
    store.jobs.insert({ kind: 'image_to_3d', label: 'chair.png', remoteId: 's1', now: 1 });
    store.close();
    const raw = new DatabaseSync(path);
    raw.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    const bytes = readFileSync(path);
    const mtime = statSync(path).mtimeMs;
    const files = readdirSync(dir);

    let error: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect(error).toMatchObject({ path, found: MIGRATIONS.length + 1, known: MIGRATIONS.length });
    expect((error as Error).message).toBe(
      `The database at ${path} was written by a newer version of Asset Studio (schema ${MIGRATIONS.length + 1}, this version knows up to ${MIGRATIONS.length}). ` +
        'Update Asset Studio, or point --data-dir at another folder. The file was not changed.',
    );
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(mtime);
    expect(readdirSync(dir)).toEqual(files); // no -wal / -shm left behind either
  });

  it('refuses a file that is not a database with an actionable error and keeps it aside, unchanged', () => {
    const dir = tempDir();
    const path = join(dir, 'a.db');
    writeFileSync(path, 'this is not a database, just some notes\n'.repeat(50));
    const bytes = readFileSync(path);

    expect(() => openDatabase(path)).toThrow(
      /^The database .*a\.db is damaged \(the file is not a SQLite database\): it was not opened, and is kept aside as .*a\.db\.damaged-\d{8}T\d{6}Z \(nothing was deleted or overwritten\)\. Run "asset-studio doctor"/,
    );
    const [aside] = readdirSync(dir);
    expect(aside).toMatch(/^a\.db\.damaged-/);
    expect(readFileSync(join(dir, aside!)).equals(bytes)).toBe(true);
    // No new empty database in its place while the damaged one is aside.
    expect(() => openDatabase(path)).toThrow(DatabaseCorruptError);
    expect(readdirSync(dir)).toEqual([aside]);
  });

  it('reports SQLite corruption found past the header as DatabaseCorruptError', () => {
    const path = join(tempDir(), 'a.db');
    openDatabase(path).close();
    const bytes = readFileSync(path);
    bytes.fill(0xa5, 100); // keep the header, ruin every page
    writeFileSync(path, bytes);
    expect(() => openDatabase(path)).toThrow(DatabaseCorruptError);
  });

  describe('an older database', () => {
    const V2 = `
      CREATE TABLE next_feature (key TEXT PRIMARY KEY, path TEXT NOT NULL);
      ALTER TABLE jobs ADD COLUMN next_flag INTEGER NOT NULL DEFAULT 0;`;

    it('is migrated without losing rows', () => {
      const path = join(tempDir(), 'a.db');
      const v1 = openDatabase(path);
      const job = v1.jobs.insert({ kind: 'style', label: 'my style', remoteId: 'st_1', now: 5 });
      const op = v1.journal.begin({ endpoint: 'createStyle', params: {}, body: { name: 'my style' }, now: 4 });
      v1.close();
      expect(pragma(path, 'user_version')).toBe(MIGRATIONS.length);

      const v2 = openDatabase(path, { migrations: [...MIGRATIONS, V2] });
      expect(v2.jobs.get(job.id)).toEqual(job);
      expect(v2.journal.get(op.operationId)).toEqual(op);
      v2.close();
      expect(pragma(path, 'user_version')).toBe(MIGRATIONS.length + 1);
      expect(tables(path)).toContain('next_feature');
    });

    it('is left at its version when a migration fails', () => {
      const path = join(tempDir(), 'a.db');
      openDatabase(path).close();
      expect(() =>
        openDatabase(path, { migrations: [...MIGRATIONS, `${V2}; INSERT INTO no_such_table VALUES (1);`] }),
      ).toThrow(/no_such_table/);
      expect(pragma(path, 'user_version')).toBe(MIGRATIONS.length);
      expect(tables(path)).not.toContain('next_feature');
    });
  });
});

describe('store.transaction', () => {
  it('commits, rolls back on a throw, and nests as a savepoint', () => {
    const store = openDatabase(':memory:');
    const result = store.transaction(() => {
      store.settings.set('a', 1);
      expect(() =>
        store.transaction(() => {
          store.settings.set('b', 2);
          throw new Error('inner');
        }),
      ).toThrow('inner');
      return 'done';
    });
    expect(result).toBe('done');
    expect(store.settings.all()).toEqual({ a: 1 });

    expect(() =>
      store.transaction(() => {
        store.settings.set('c', 3);
        throw new Error('outer');
      }),
    ).toThrow('outer');
    expect(store.settings.all()).toEqual({ a: 1 });
    store.close();
  });

  it('refuses an async function and stores nothing', () => {
    const store = openDatabase(':memory:');
    expect(() =>
      store.transaction(async () => {
        store.settings.set('a', 1);
      }),
    ).toThrow(/synchronous/);
    expect(store.settings.all()).toEqual({});
    store.close();
  });
});
