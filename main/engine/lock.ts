// One engine per data folder: a lock file holding the owner's pid, taken with an exclusive create.
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive } from '../durable/process-alive.ts';

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

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = join(dataDir, 'engine.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(owner) && owner > 0 && isProcessAlive(owner)) throw new LocalEngineBusyError(dataDir, owner);
      await rm(path, { force: true }); // left behind by an engine that is gone: take it over
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}: another engine keeps taking it.`);
}
