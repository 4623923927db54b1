// One engine per data folder: a lock file holding the owner's pid, taken with an exclusive create (from a
// stopped owner only when asked, and then handed back to it on release).
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive, isProcessStopped } from '../durable/process-alive.ts';

/** Another live engine (maybe in this very process) holds the data folder. */
export class LocalEngineBusyError extends Error {
  readonly dataDir: string;
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `The data folder ${dataDir} is in use by another engine (process ${pid}${pid === process.pid ? ', this process' : ''}). ` +
        'Stop that engine or give this one another data folder.',
    );
    this.name = 'LocalEngineBusyError';
    this.dataDir = dataDir;
    this.pid = pid;
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

export interface LockOptions {
  /**
   * Take the folder from an owner that is stopped (SIGSTOP, Ctrl-Z: process-alive.ts) as from one that is gone;
   * it is handed back to that owner on release if it still lives, so it finds its lock as it left it when it goes
   * on. Asked only by a process that found the owner not answering at all (main/app/engine-owner.ts).
   */
  fromStoppedOwner?: boolean;
}

export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const path = join(dataDir, 'engine.lock');
  let stopped: number | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      const owner = stopped;
      return {
        release: async () => {
          if (owner !== undefined && isProcessAlive(owner)) await writeFile(path, String(owner), { mode: 0o600 });
          else await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      const alive = Number.isInteger(owner) && owner > 0 && isProcessAlive(owner);
      if (alive && !(options.fromStoppedOwner && isProcessStopped(owner)))
        throw new LocalEngineBusyError(dataDir, owner);
      if (alive) stopped = owner; // borrowed while it is stopped
      await rm(path, { force: true }); // left behind by an engine that is gone: take it over
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}: another engine keeps taking it.`);
}
