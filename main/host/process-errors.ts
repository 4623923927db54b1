// The web host's last line: an error that nothing caught (thrown in a timer's callback, a promise nobody
// awaited) reaches the process. A full disk there (a DiskFullError, or a raw ENOSPC/EDQUOT) is said in one line
// and the host keeps serving: it failed one action, which is already over. Anything else is a bug: its stack
// is printed and the process ends with code 1, as Node does by default.
import { diskFullOf } from '../durable/disk-full.ts';

/** Installs the handlers (once per process); `log` receives the line said for a full disk. */
export function keepServingOnDiskFull(log: (line: string) => void = (line) => console.error(line)): void {
  const handle = (error: unknown) => {
    const full = diskFullOf(error);
    if (full !== undefined) return log(`error: ${full.message}`);
    console.error(error);
    process.exit(1);
  };
  process.on('uncaughtException', handle);
  process.on('unhandledRejection', handle);
}
