// Opening the app's database with 10,000 jobs, as every start of the app, the web host or a CLI command does:
//  - openDatabase after a clean close (what a start usually finds),
//  - openDatabase with no record of a clean close (main/durable/clean-close.ts): it checks the file, as every
//    open did before,
//  - openDatabase after an unclean shutdown (the process ended with the database open: its -wal file is left),
//    which runs SQLite's full structure check (PRAGMA quick_check),
// with, measured in the same run as baselines, a bare node:sqlite open with the same PRAGMAs and no check, and
// that bare open followed by PRAGMA quick_check (what every openDatabase did before the check was made
// conditional). Each round opens and closes; the medians are shown. The jobs are finished image-to-3D jobs with
// a result of the service's shape (about 1 KiB of JSON each).
// Usage: node bench/database-open.ts [--jobs N] [--rounds N]
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { openDatabase } from '../main/store/database.ts';

const { values } = parseArgs({
  options: { jobs: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '15' } },
});
const JOBS = Number(values.jobs);
const ROUNDS = Number(values.rounds);

const dir = mkdtempSync(join(tmpdir(), 'asset-studio-bench-db-'));
const path = join(dir, 'asset-studio.db');
try {
  const store = openDatabase(path);
  store.transaction(() => {
    for (let i = 0; i < JOBS; i++) {
      const code = `SESSION_${String(i).padStart(8, '0')}`;
      const job = store.jobs.insert({ kind: 'image_to_3d', label: `create-3d chair-${i}.png`, remoteId: code, now: i });
      const file = (name: string) =>
        `https://files.example.com/out/${code}/${name}?sp=r&st=2026-11-27T10:00:00Z&se=2026-11-28T10:00:00Z&sv=2022-11-02&sr=b&sig=${'x'.repeat(43)}`;
      store.jobs.updateStatus(job.id, {
        state: 'succeeded',
        rawStatus: 'complete',
        final: true,
        result: {
          session_code: code,
          session_status: 'complete',
          mesh_url_glb: file('mesh.glb'),
          mesh_url_fbx: file('mesh.fbx'),
          mesh_url_obj: file('mesh.obj'),
          mesh_url_usdz: file('mesh.usdz'),
          thumbnail_url: file('thumbnail.png'),
        },
        now: i + 1,
      });
    }
  });
  store.close();
  console.log(
    `${JOBS} jobs, database file ${(statSync(path).size / 2 ** 20).toFixed(1)} MiB, ${ROUNDS} rounds (medians)`,
  );

  const PRAGMAS =
    'PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';
  const bareOpen = (check: boolean) => {
    const db = new DatabaseSync(path);
    db.exec(PRAGMAS);
    if (check) db.prepare('PRAGMA quick_check').all();
    db.close();
  };
  /** The state an unclean shutdown leaves: the -wal file of a connection that never closed. */
  const leaveWal = () => {
    const open = new DatabaseSync(path);
    open.exec('PRAGMA journal_mode = WAL');
    open.exec("INSERT INTO settings (key, value) VALUES ('bench', '1') ON CONFLICT (key) DO UPDATE SET value = '2'");
    copyFileSync(`${path}-wal`, join(dir, 'wal'));
    open.close();
    copyFileSync(join(dir, 'wal'), `${path}-wal`);
  };
  /** Without the record of the last clean close, openDatabase checks the file as it did at every open before. */
  const forgetRecord = () => rmSync(`${path}-closed`, { force: true });
  const cases: [string, () => void, (() => void) | undefined][] = [
    ['bare open, no check (baseline)', () => bareOpen(false), undefined],
    ['bare open + PRAGMA quick_check', () => bareOpen(true), undefined],
    ['openDatabase, checked (no record: the open before)', () => openDatabase(path).close(), forgetRecord],
    ['openDatabase after a clean close', () => openDatabase(path).close(), undefined],
    ['openDatabase after an unclean shutdown', () => openDatabase(path).close(), leaveWal],
  ];
  const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  openDatabase(path).close(); // once, so that the clean close is recorded where the open reads it
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run, before] of cases) {
      before?.();
      const started = performance.now();
      run();
      times.get(name)!.push(performance.now() - started);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [name, xs] of times) console.log(`${name.padEnd(52)}: ${median(xs).toFixed(2)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
