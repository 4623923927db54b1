// Child process of stale-lock-race.test.ts: waits for the moment given (ms since the epoch), claims the lock at
// argv[2], prints "held" or "busy", and keeps what it holds until its standard input closes.
import { claimPidLock } from '../../../main/durable/pid-lock.ts';

const at = Number(process.argv[3]);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now()))); // every claimer starts together
const lock = await claimPidLock(process.argv[2]!);
process.stdout.write(lock.held ? 'held\n' : 'busy\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
