// The engine's engine.db as a CLI user meets it (#33 item 5), through the bundled launcher: a damaged one is kept
// aside and salvaged, and the notice reaches the terminal (stderr); an emptied one is refused, naming the file;
// and a database another process keeps locked is named, with what to do, for `jobs` too (the app's
// asset-studio.db and the engine's engine.db alike).
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDataDir } from '../../cli/run-cli.ts';
import { spawnCli } from '../cli/spawn-cli.ts';

/** A data folder whose engine has run once (its engine.db made and closed cleanly). */
async function usedFolder(): Promise<{ dir: string; env: NodeJS.ProcessEnv; engineDb: string }> {
  const dir = tempDataDir();
  const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dir });
  const first = await spawnCli(['list', '--json'], env);
  expect(first.code, first.stderr).toBe(0);
  return { dir, env, engineDb: join(dir, 'engine', 'engine.db') };
}

/** Holds a write transaction on the database at `path` (as another process writing it would) while `fn` runs. */
async function whileLocked<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const db = new DatabaseSync(path);
  try {
    db.exec('BEGIN IMMEDIATE');
    return await fn();
  } finally {
    db.exec('ROLLBACK');
    db.close();
  }
}

describe("the engine's records database, seen from the CLI", () => {
  it('a damaged one is kept aside and salvaged, and the terminal is told', async () => {
    const { env, engineDb } = await usedFolder();
    writeFileSync(engineDb, 'not a database at all, but more than the magic string');
    const run = await spawnCli(['jobs'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`its records database ${engineDb} was damaged`);
    expect(run.stderr).toMatch(/kept aside, unchanged, as .*engine\.db\.damaged-/);
  });

  it('an emptied one is refused, naming the file, not a new engine with its credits reset', async () => {
    const { env, engineDb } = await usedFolder();
    truncateSync(engineDb, 0);
    const run = await spawnCli(['jobs'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The engine's records database ${engineDb} is empty (0 bytes)`);
    expect(run.stderr).toMatch(/kept aside as .*engine\.db\.damaged-/);
    const again = await spawnCli(['list'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('found empty (0 bytes) earlier');
  });

  it('a locked database is named, with what to do, for jobs too', async () => {
    const { dir, env, engineDb } = await usedFolder();
    const appDb = join(dir, 'asset-studio.db');
    const app = await whileLocked(appDb, () => spawnCli(['jobs'], env));
    expect(app.code).toBe(1);
    expect(app.stderr).toContain(`The database ${appDb} is locked by another process`);
    expect(app.stderr).toMatch(/close that program, then run this again/);
    const engine = await whileLocked(engineDb, () => spawnCli(['jobs'], env));
    expect(engine.code).toBe(1);
    expect(engine.stderr).toContain(`The database ${engineDb} is locked by another process`);
  });
});
