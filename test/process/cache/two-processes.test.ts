// Two processes on one data folder (the CLI beside the app or the web host) fetching the same outputs of one
// job at once: both succeed, every time, and the cache entries are complete and verify (#24 item 8: one
// process renamed the shared part file away and the other reported "ENOENT rename … Free some disk space").
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { DownloadCache } from '../../../main/cache/download-cache.ts';
import { openDatabase } from '../../../main/store/database.ts';
import { startTestEngine, type TestEngine } from '../../engine/helpers.ts';
import { hostFile, sha256File } from '../../cache/helpers.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { outputOf, spawnCli } from '../cli/spawn-cli.ts';

const CHILD = fileURLToPath(new URL('../../cache/fixtures/fetch-output.ts', import.meta.url));
const MiB = 1 << 20;
const ROUNDS = 20;

let engine: TestEngine | undefined;
let dir: string | undefined;
afterEach(async () => {
  await engine?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it(`two processes fetching the same outputs into one data folder at once both succeed, ${ROUNDS} times out of ${ROUNDS}`, async () => {
  engine = await startTestEngine();
  dir = mkdtempSync(join(tmpdir(), 'asset-studio-two-'));
  const files = {
    glb: await hostFile(engine, 'race/model.glb', 6 * MiB),
    image: await hostFile(engine, 'race/image.png', 1 * MiB),
  };
  const db = join(dir, 'asset-studio.db');
  const cacheDir = join(dir, 'cache');
  openDatabase(db).close(); // made once, as the app does before the CLI runs beside it

  for (let round = 0; round < ROUNDS; round++) {
    const session = `SESSION_race${round}`;
    const runs = Object.entries(files).flatMap(([kind, file]) =>
      [0, 1].map(() =>
        outputOf(
          spawn(
            process.execPath,
            [CHILD, '--db', db, '--cache-dir', cacheDir, '--session', session, '--kind', kind, '--url', file.url()],
            { stdio: ['ignore', 'pipe', 'pipe'] },
          ),
        ).then((result) => ({ kind, result })),
      ),
    );
    for (const { kind, result } of await Promise.all(runs)) {
      expect(result.stderr, `round ${round}, ${kind}`).not.toMatch(/disk space|ENOENT/);
      expect(result.code, `round ${round}, ${kind}: ${result.stderr}`).toBe(0);
      const { path } = JSON.parse(result.stdout) as { path: string };
      expect(sha256File(path), `round ${round}, ${kind}`).toBe(files[kind as keyof typeof files].sha256);
    }
  }

  const store = openDatabase(db);
  try {
    const entries = store.cache.list();
    expect(entries).toHaveLength(ROUNDS * 2);
    expect(entries.filter((e) => e.state !== 'complete').map((e) => [e.sessionId, e.kind, e.state, e.error])).toEqual(
      [],
    );
    const cache = new DownloadCache({ store, dir: cacheDir });
    const report = await cache.verify(); // what `asset-studio cache verify` runs
    expect(report.bad).toEqual([]);
    expect(report.checked).toBe(2);
    await cache.close();
  } finally {
    store.close();
  }
  // And as a user checks it, with the CLI on the same data folder.
  const verify = await spawnCli(['cache', 'verify'], cleanEnv({ ASSET_STUDIO_DATA_DIR: dir }));
  expect(verify.code, verify.stderr).toBe(0);
  expect(verify.stdout).toMatch(/0 damaged/);
  // Nothing left behind: no part file of either writer, no lock.
  expect(readdirSync(join(cacheDir, 'tmp'))).toEqual([]);
}, 240_000);
