// A zero-length, damaged or truncated database (#26 item 9): the CLI refuses it, naming the file and `doctor`,
// and keeps it aside (renamed, never overwritten); while it is aside no new empty library is made in its place.
// `asset-studio doctor` checks the database and salvages what SQLite can read into a new one.
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../main/store/database.ts';
import type { DoctorReport } from '../../main/store/salvage.ts';
import { tempDir } from '../helpers.ts';
import { cleanEnv, runCli } from './run-cli.ts';

const JOBS = 400;
const SETTINGS = 5;

/** A data folder used before: its cache folder (with the cache's marker) and a database of the store's with rows. */
async function usedDataFolder(): Promise<{ dir: string; db: string; env: NodeJS.ProcessEnv }> {
  const dir = tempDir();
  const env = cleanEnv({
    ASSET_STUDIO_DATA_DIR: dir,
    ASSET_STUDIO_BASE_URL: 'http://127.0.0.1:9',
    ASSET_STUDIO_API_KEY: 'unused-test-key-0123456789',
  });
  const first = await runCli(['jobs', '--json'], env); // makes the database and the cache folder
  expect(first.code, first.stderr).toBe(0);
  const db = databasePath(dir);
  const store = openDatabase(db);
  for (let i = 0; i < JOBS; i++)
    store.jobs.insert({ kind: 'text_to_image', label: `job ${i} ${'x'.repeat(200)}`, remoteId: `tti_${i}`, now: i });
  for (let i = 0; i < SETTINGS; i++) store.settings.set(`note${i}`, { i });
  store.close(); // the last connection: everything is in the file, no -wal left
  return { dir, db, env };
}

function asideOf(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith('asset-studio.db.damaged-'));
}

/** Refused by `jobs`, naming the file and doctor; the file is kept aside and no new database takes its place. */
async function expectRefused(dir: string, db: string, env: NodeJS.ProcessEnv, bytes: Buffer): Promise<void> {
  const result = await runCli(['jobs', '--json'], env);
  expect(result.code).toBe(1);
  const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
  expect(error.code).toBe('database-corrupt');
  expect(error.message).toContain(db);
  expect(error.message).toContain('asset-studio doctor');
  const [aside] = asideOf(dir);
  expect(error.message).toContain(join(dir, aside!));
  expect(readFileSync(join(dir, aside!)).equals(bytes)).toBe(true); // kept as it was
  expect(existsSync(db)).toBe(false);
  // Again: still refused (no empty library made in its place), the copy kept aside not overwritten.
  const again = await runCli(['jobs'], env);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/was found damaged earlier and is kept aside as .*asset-studio doctor/);
  expect(asideOf(dir)).toEqual([aside]);
}

async function doctor(env: NodeJS.ProcessEnv): Promise<DoctorReport> {
  const result = await runCli(['doctor', '--json'], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as DoctorReport;
}

const rowsOf = (report: DoctorReport, table: string) => report.tables.find((t) => t.table === table)!;

it('a zero-length database in a used data folder is refused and kept aside; doctor makes a new one', async () => {
  const { dir, db, env } = await usedDataFolder();
  truncateSync(db, 0);
  await expectRefused(dir, db, env, Buffer.alloc(0));
  const report = await doctor(env);
  expect(report).toMatchObject({ outcome: 'salvaged', check: expect.stringContaining('kept aside earlier') });
  expect(rowsOf(report, 'jobs').rows).toBe(0);
  const after = await runCli(['jobs', '--json'], env);
  expect(after.code, after.stderr).toBe(0);
  expect(JSON.parse(after.stdout)).toEqual([]);
  expect((await doctor(env)).outcome).toBe('intact');
});

it('garbage over a page of the jobs table: refused; doctor salvages the other rows and every intact table', async () => {
  const { dir, db, env } = await usedDataFolder();
  const page = leafPageOf(db, 'jobs');
  const fd = openSync(db, 'r+');
  writeSync(fd, Buffer.alloc(page.size, 0x5a), 0, page.size, page.offset);
  closeSync(fd);
  await expectRefused(dir, db, env, readFileSync(db));
  const report = await doctor(env);
  expect(report.outcome).toBe('salvaged');
  expect(report.keptAs).toBe(join(dir, asideOf(dir)[0]!));
  const jobs = rowsOf(report, 'jobs');
  expect(jobs.rows).toBeGreaterThan(JOBS / 2);
  expect(jobs.rows).toBeLessThan(JOBS);
  expect(jobs.unreadable).not.toBeNull();
  expect(rowsOf(report, 'settings')).toEqual({ table: 'settings', rows: SETTINGS + 1, unreadable: null }); // + the cache's
  const listed = await runCli(['jobs', '--json'], env);
  expect(listed.code, listed.stderr).toBe(0);
  const store = openDatabase(db);
  expect(store.jobs.list({}).length).toBe(jobs.rows);
  store.close();
  // The text report says the same in words.
  const text = await runCli(['doctor'], env);
  expect(text.stdout).toBe(`The database ${db} is intact (integrity check: ok).\n`);
});

it('a truncated database: refused and kept aside; doctor salvages what is left', async () => {
  const { dir, db, env } = await usedDataFolder();
  truncateSync(db, Math.floor(statSync(db).size / 2));
  await expectRefused(dir, db, env, readFileSync(db));
  const result = await runCli(['doctor'], env);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(
    new RegExp(
      `^The database ${db} was damaged \\(.*\\)\\.\nIt is kept aside as ${db}\\.damaged-\\d{8}T\\d{6}Z \\(nothing was deleted\\), and a new database holds what could be read:\n`,
    ),
  );
  expect(result.stdout).toMatch(/^ {2}jobs +\d+ rows/m);
  expect((await runCli(['jobs'], env)).code).toBe(0);
});

/** The place of one leaf page of a table (its root is an interior page once it spans several pages). */
function leafPageOf(db: string, table: string): { offset: number; size: number } {
  const store = new DatabaseSync(db, { readOnly: true });
  const { rootpage } = store.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(table) as {
    rootpage: number;
  };
  const { page_size: size } = store.prepare('PRAGMA page_size').get() as { page_size: number };
  store.close();
  const fd = openSync(db, 'r');
  const root = Buffer.alloc(size);
  readSync(fd, root, 0, size, (rootpage - 1) * size);
  closeSync(fd);
  expect(root[0], 'the root of the table is an interior page').toBe(0x05);
  const cells = root.readUInt16BE(3);
  const pointer = root.readUInt16BE(12 + 2 * Math.floor(cells / 2)); // a cell in the middle
  const child = root.readUInt32BE(pointer);
  return { offset: (child - 1) * size, size };
}
