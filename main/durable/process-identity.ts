// Which process a pid names: the pid alone is not enough, since the system gives a dead process's pid to a new
// one (a reboot starts them again from 1). A process is named by its pid and, where Linux's /proc tells it, the
// boot it runs in and the moment it started (`/proc/sys/kernel/random/boot_id`, field 22 of `/proc/<pid>/stat`):
// `<boot id>:<start ticks>`. A record made by one process (a lock file, a journal row) holds both, and the process
// it names is alive only while a process with that pid runs AND started at that moment. Where /proc is not there
// (macOS, Windows) the start is unknown and the pid alone counts, as before.
import { readFileSync } from 'node:fs';
import { isProcessAlive } from './process-alive.ts';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on every Linux architecture Node runs on). */
const TICKS_PER_SECOND = 100;

/** A process as a record names it: its id and, where known, its start (`<boot id>:<start ticks>`). */
export interface ProcessIdentity {
  pid: number;
  start: string | undefined;
}

let bootId: string | null | undefined;

function currentBootId(): string | undefined {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootId = null;
    }
  }
  return bootId ?? undefined;
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after the boot; undefined when unknown. */
function startTicks(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (command) state ppid …": the command may hold spaces and parentheses; field 3 (the state) follows the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  return Number.isSafeInteger(ticks) && ticks >= 0 ? ticks : undefined;
}

/** `<boot id>:<start ticks>` of the process that has this pid now; undefined where /proc does not tell. */
export function processStart(pid: number): string | undefined {
  const boot = currentBootId();
  const ticks = startTicks(pid);
  return boot === undefined || ticks === undefined ? undefined : `${boot}:${ticks}`;
}

/** This process, as the records it makes name it. */
export function ownIdentity(): ProcessIdentity {
  return { pid: process.pid, start: processStart(process.pid) };
}

/** The text form kept in a record: `<pid>` or `<pid>@<boot id>:<start ticks>`. */
export function identityText(identity: ProcessIdentity): string {
  return identity.start === undefined ? String(identity.pid) : `${identity.pid}@${identity.start}`;
}

/** The identity a record's text names; undefined when it names none. */
export function parseIdentity(text: string): ProcessIdentity | undefined {
  const at = text.indexOf('@');
  const pid = Number(at < 0 ? text : text.slice(0, at));
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const start = at < 0 ? undefined : text.slice(at + 1);
  return { pid, start: start === '' ? undefined : start };
}

/**
 * True while the process the identity names runs: a process has its pid and, when the identity holds its start,
 * started then (another start: the pid was given to another process since). A start that cannot be read now
 * (no /proc, a process of another user hidden from it) counts as the same: a live process is never taken for a
 * dead one without knowing.
 */
export function isSameProcessAlive(identity: ProcessIdentity): boolean {
  if (!isProcessAlive(identity.pid)) return false;
  if (identity.start === undefined) return true;
  const now = processStart(identity.pid);
  return now === undefined || now === identity.start;
}

/**
 * When the process that has this pid now started (ms since the epoch), from /proc's boot time and its start
 * ticks; undefined where /proc does not tell. For a record that names a pid alone (written by an older version):
 * a process started after the record was written cannot be the one that wrote it.
 */
export function processStartedAt(pid: number): number | undefined {
  const ticks = startTicks(pid);
  if (ticks === undefined) return undefined;
  let boot: number;
  try {
    const line = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('btime '));
    boot = Number(line?.slice(6));
  } catch {
    return undefined;
  }
  return Number.isFinite(boot) && boot > 0 ? boot * 1000 + (ticks * 1000) / TICKS_PER_SECOND : undefined;
}
