// Whether the process that wrote its id into a lock or staging file still runs: the engine's data-folder lock,
// the download cache's part locks and the export's staging folders tell a live owner from a crashed one.

/** True while `pid` runs (a process of another user counts: signalling it is refused, not unknown). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
