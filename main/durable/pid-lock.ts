// A lock file that names its owner process, for one owner across the processes of a data folder: the engine's
// data-folder lock (main/engine/lock.ts) and the download cache's part locks (main/cache). Taken with an exclusive
// create. Its content is `<pid> <token> <start>`: the start (`<boot id>:<start ticks>`, process-identity.ts) tells
// the owner from a process that got its pid since (a reboot, pids wrapping round), so a lock naming a reused pid is
// taken over like a dead process's; a lock an older version wrote (`<pid> <token>`) names a reused pid when that
// process started after the lock was written. A lock held by a live owner (this process included) is left to it
// unless the claim may borrow it (a stopped owner: then it is handed back on release), and an empty or damaged one
// is its maker's, still writing it, while it is fresh. A lock is replaced (taken over or borrowed) only under a
// short guard file (`<lock>.takeover`), so two claims that find it stale at once never both take it.
import { randomBytes } from 'node:crypto';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from './process-alive.ts';
import { isSameProcessAlive, ownIdentity, processStartedAt, type ProcessIdentity } from './process-identity.ts';

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

/** An empty or unreadable lock (or a guard) younger than this is being written by its maker, not left by a crash. */
const FRESH_MS = 10_000;
/** /proc's boot time is in whole seconds: a process started this much after a lock was written may have written it. */
const CLOCK_SLACK_MS = 2_000;
/** How many times a claim looks again when the lock changes under it (another claim replacing it meanwhile). */
const ATTEMPTS = 100;
const GUARD_WAIT_MS = 20;

export interface PidLockOptions {
  /**
   * A live holder this claim may borrow the lock from (the engine's: a stopped owner, main/engine/lock.ts). The
   * lock is written back as that holder left it when the claim is released, if the holder still lives.
   */
  borrowFrom?: (holder: number) => boolean;
}

/** The process a lock file's content names (`<pid> <token> [<start>]`), undefined when it names none. */
export function holderOf(content: string): ProcessIdentity | undefined {
  const [pidText, , start] = content.trim().split(' ');
  const pid = Number(pidText);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, start: start || undefined } : undefined;
}

/** The content of a lock this process writes. */
function lockContent(): string {
  const { pid, start } = ownIdentity();
  return [pid, randomBytes(8).toString('hex'), start].filter((part) => part !== undefined).join(' ');
}

/** Takes the lock file at `path` for this process, or says who holds it. Throws what the file system throws. */
export async function claimPidLock(path: string, options: PidLockOptions = {}): Promise<PidLock> {
  const token = lockContent();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await create(path, token)) return held(path, token, undefined);
    const content = await readFile(path, 'utf8').catch(() => undefined);
    if (content === undefined) continue; // removed meanwhile: try again
    const holder = holderOf(content);
    let lent: string | undefined; // the content of a borrowed lock, written back on release
    if (holder !== undefined) {
      if (await holderLives(path, holder)) {
        if (holder.pid === process.pid || !options.borrowFrom?.(holder.pid)) return { held: false, holder: holder.pid };
        lent = content;
      }
    } else if (await isFresh(path)) return { held: false, holder: undefined };
    // Left behind by a process that is gone (or whose pid another process has now), or lent by a stopped one.
    const outcome = await replace(path, content, token);
    if (outcome === 'held') return held(path, token, lent);
    if (outcome === 'guarded') await sleep(GUARD_WAIT_MS); // another claim is replacing it: look again after it
  }
  return { held: false, holder: undefined };
}

/** Writes the lock if there is none; false when one is there. */
async function create(path: string, token: string): Promise<boolean> {
  try {
    await writeFile(path, token, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function held(path: string, token: string, borrowed: string | undefined): PidLock {
  return {
    held: true,
    release: async () => {
      if ((await readFile(path, 'utf8').catch(() => '')) !== token) return; // taken over: not ours any more
      const owner = borrowed === undefined ? undefined : holderOf(borrowed);
      if (owner !== undefined && isSameProcessAlive(owner)) await writeFile(path, borrowed!, { mode: 0o600 });
      else await rm(path, { force: true });
    },
  };
}

/**
 * Replaces the lock whose content was `expected` with this claim's, under the guard file: `held`, `changed` (the
 * lock is not as it was judged: judge it again) or `guarded` (another claim is replacing it now).
 */
async function replace(path: string, expected: string, token: string): Promise<'held' | 'changed' | 'guarded'> {
  const guard = `${path}.takeover`;
  if (!(await create(guard, String(process.pid)))) {
    if (!(await isFresh(guard))) await rm(guard, { force: true }); // its maker died while it replaced the lock
    return 'guarded';
  }
  try {
    const now = await readFile(path, 'utf8').catch(() => undefined);
    if (now !== undefined && now !== expected) return 'changed';
    await rm(path, { force: true });
    return (await create(path, token)) ? 'held' : 'changed';
  } finally {
    await rm(guard, { force: true });
  }
}

/**
 * Whether the process a lock names is its owner and runs: one with its pid and start, or, for a lock naming no
 * start (an older version's), one with its pid that was already running when the lock was last written.
 */
async function holderLives(path: string, holder: ProcessIdentity): Promise<boolean> {
  if (holder.start !== undefined) return isSameProcessAlive(holder);
  if (!isProcessAlive(holder.pid)) return false;
  const started = processStartedAt(holder.pid);
  if (started === undefined) return true; // cannot tell: a live process is never taken for a dead one
  const written = await stat(path).then(
    (s) => s.mtimeMs,
    () => Number.POSITIVE_INFINITY,
  );
  return started <= written + CLOCK_SLACK_MS;
}

async function isFresh(path: string): Promise<boolean> {
  const age = await stat(path).then(
    (s) => Date.now() - s.mtimeMs,
    () => Number.POSITIVE_INFINITY,
  );
  return age < FRESH_MS;
}
