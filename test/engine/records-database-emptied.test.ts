// A zero-length engine.db where the engine kept records before (#33 item 5): not a new engine with its sessions
// gone and its credits reset, but refused, naming the file, with the empty file kept aside; refused again while
// that copy waits; a fresh engine once the user moved it away. A fresh folder's engine.db is made as before.
import { existsSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, EngineStateEmptiedError, openState } from '../../main/engine/state.ts';
import { makeDataDir } from './helpers.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("an emptied engine's records database", () => {
  it('is kept aside and refused, naming the file, until the copy is moved away', async () => {
    const dir = await makeDataDir();
    dirs.push(dir);
    const first = await openState(dir);
    first.state.credits.user_1 = 420;
    await first.save();
    await first.close();
    const path = join(dir, DATABASE_FILE);
    truncateSync(path, 0); // emptied: a crash, a sync tool, a user's `: > engine.db`

    const refused = await openState(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineStateEmptiedError);
    const keptAs = (refused as EngineStateEmptiedError).keptAs;
    expect((refused as Error).message).toContain(path);
    expect((refused as Error).message).toContain(keptAs);
    expect(statSync(keptAs).size).toBe(0);
    expect(existsSync(path)).toBe(false); // no new database made in its place

    const again = await openState(dir).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(EngineStateEmptiedError);
    expect((again as Error).message).toMatch(/found empty \(0 bytes\) earlier/);
    expect(existsSync(path)).toBe(false);

    rmSync(keptAs); // the user chose to start afresh
    const fresh = await openState(dir);
    expect(fresh.state.credits).toEqual({});
    await fresh.close();
  });

  it('an empty engine.db in a folder never used is a new database, as before', async () => {
    const dir = await makeDataDir();
    dirs.push(dir);
    writeFileSync(join(dir, DATABASE_FILE), ''); // made, then a crash before SQLite wrote it
    const store = await openState(dir);
    await store.close();
    expect(readdirSync(dir).filter((n) => n.includes('.damaged-'))).toEqual([]);
  });
});
