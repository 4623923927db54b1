// Whether the process that wrote its id into a lock or staging file still runs: the engine's data-folder lock,
// the download cache's part locks and the export's staging folders tell a live owner from a crashed one; and
// whether a live one is stopped (SIGSTOP, Ctrl-Z): the engine's owner that does not answer is told from a busy one.
import { readFileSync } from 'node:fs';

/** True while `pid` runs (a process of another user counts: signalling it is refused, not unknown). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when `pid` is stopped by a signal (SIGSTOP, SIGTSTP: Ctrl-Z) or a debugger, as Linux's /proc says (state T
 * or t). A process that runs or waits, however busy, is not; where /proc is not there (macOS, Windows) the answer
 * is false: a process is never taken for stopped without knowing it.
 */
export function isProcessStopped(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (command) state ...": the command may hold spaces and parentheses, the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'T' || state === 't';
}
