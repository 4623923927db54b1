// One engine per data folder: a lock file naming the owner by its pid and start (main/durable/pid-lock.ts: a lock
// naming a pid another process has now is taken over), taken from a stopped owner only when asked, and then handed
// back to it on release.
import { join } from 'node:path';
import { claimPidLock } from '../durable/pid-lock.ts';
import { isProcessStopped } from '../durable/process-alive.ts';

/** Another live engine (maybe in this very process, or one starting this instant) holds the data folder. */
export class LocalEngineBusyError extends Error {
  readonly dataDir: string;
  /** The process of that engine; undefined while it is starting (its lock is being written). */
  readonly pid: number | undefined;

  constructor(dataDir: string, pid: number | undefined) {
    const who = pid === undefined ? 'one starting now' : `process ${pid}${pid === process.pid ? ', this process' : ''}`;
    super(
      `The data folder ${dataDir} is in use by another engine (${who}). ` +
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

/** Locks the data folder for this process's engine; LocalEngineBusyError when a live engine holds it. */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const lock = await claimPidLock(
    join(dataDir, 'engine.lock'),
    options.fromStoppedOwner ? { borrowFrom: isProcessStopped } : {},
  );
  if (!lock.held) throw new LocalEngineBusyError(dataDir, lock.holder);
  return { release: lock.release };
}
