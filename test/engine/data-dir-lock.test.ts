// The engine's data-folder lock (main/engine/lock.ts, a pid lock of main/durable/pid-lock.ts): the lock of an
// engine that is gone is taken over; one held by a live engine, or being written by one starting, is not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from '../../main/engine/lock.ts';
import { tempDir } from '../helpers.ts';

describe("the engine's data-folder lock", () => {
  it('takes over the lock of an engine that is gone, and refuses one held or being written', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'engine.lock'), '2147483646'); // no such process
    const lock = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(
      `in use by another engine (process ${process.pid}, this process)`,
    );
    await lock.release();
    // Another engine created its lock this instant and has not written its pid yet: not taken from it.
    writeFileSync(join(dataDir, 'engine.lock'), '');
    await expect(lockDataDir(dataDir)).rejects.toThrow('in use by another engine (one starting now)');
  });
});
