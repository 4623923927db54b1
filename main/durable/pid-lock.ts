// A lock file that holds its owner's process id, for one owner across the processes of a data folder: the
// engine's data-folder lock (main/engine/lock.ts) and the download cache's part locks (main/cache). Taken with
// an exclusive create; a lock whose process is gone (a crash) is taken over, one held by a live process (this
// one included) is left to it unless the claim may borrow it (a stopped owner: then it is handed back on
// release), and an empty or damaged one is its maker's, still writing it, while it is fresh.
import { randomBytes } from 'node:crypto';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { isProcessAlive } from './process-alive.ts';

export type PidLock =
  | {
      held: true;
      /** Removes the lock when it is still this claim's (a process that took it over as stale keeps its own). */
      release(): Promise<void>;
    }
  | {
      held: false;
      /** The live process that holds it; undefined while its maker writes it (or others keep taking it). */
      holder: number | undefined;
    };

/** An empty or unreadable lock younger than this is being written by its maker, not left by a crash. */
const FRESH_MS = 10_000;

export interface PidLockOptions {
  /**
   * A live holder this claim may borrow the lock from (the engine's: a stopped owner, main/engine/lock.ts). The
   * lock is written back as that holder left it when the claim is released, if the holder still lives.
   */
  borrowFrom?: (holder: number) => boolean;
}

/** The process id a lock file's content names (`<pid> <token>`), undefined when it names none. */
function holderOf(content: string): number | undefined {
  const pid = Number(content.split(' ')[0]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Takes the lock file at `path` for this process, or says who holds it. Throws what the file system throws. */
export async function claimPidLock(path: string, options: PidLockOptions = {}): Promise<PidLock> {
  const token = `${process.pid} ${randomBytes(8).toString('hex')}`;
  let lent: string | undefined; // the content of a borrowed lock, written back on release
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, token, { flag: 'wx', mode: 0o600 });
      const borrowed = lent;
      return {
        held: true,
        release: async () => {
          if ((await readFile(path, 'utf8').catch(() => '')) !== token) return; // taken over: not ours any more
          const owner = borrowed === undefined ? undefined : holderOf(borrowed);
          if (owner !== undefined && isProcessAlive(owner)) await writeFile(path, borrowed!, { mode: 0o600 });
          else await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const content = await readFile(path, 'utf8').catch(() => '');
    const holder = holderOf(content);
    lent = undefined;
    if (holder !== undefined) {
      if (holder === process.pid) return { held: false, holder };
      if (isProcessAlive(holder)) {
        if (!options.borrowFrom?.(holder)) return { held: false, holder };
        lent = content;
      }
    } else if (await isFresh(path)) return { held: false, holder: undefined };
    await rm(path, { force: true }); // left behind by a process that is gone (or lent by a stopped one): take it
  }
  return { held: false, holder: undefined };
}

async function isFresh(path: string): Promise<boolean> {
  const age = await stat(path).then(
    (s) => Date.now() - s.mtimeMs,
    () => Number.POSITIVE_INFINITY,
  );
  return age < FRESH_MS;
}
