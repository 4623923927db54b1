// Run by read-lease.test.ts in a child process: a reader of the data folder that claims the read of a job, as
// the tracker does, prints CLAIMED, and then holds the claim (renewing it with `renew`) until it is killed or
// stopped by the test.
//   node test/process/jobs/claim-holder.ts <database> <job id> <lease ms> [renew]
import { openDatabase } from '../../../main/store/database.ts';

const [path, id, leaseText, mode] = process.argv.slice(2) as [string, string, string, string | undefined];
const leaseMs = Number(leaseText);
const store = openDatabase(path);

// Another reader (the CLI's wait) has read the job once; its next read is brought forward and claimed here, in
// one transaction, so that reader finds it claimed (retried while that reader's own read is under way).
function claim(): number | undefined {
  const now = Date.now();
  return store.transaction(() => {
    const job = store.jobs.require(id);
    if (job.final) {
      process.stderr.write(
        'the job ended before it could be claimed (the engine was faster than the reader started)\n',
      );
      process.exit(1);
    }
    if (job.pollCount < 1) return undefined;
    store.jobs.pollBy(id, now);
    return store.jobs.markPolling(id, now, now + leaseMs) ? now + leaseMs : undefined;
  });
}

const timer = setInterval(() => {
  let held: number | undefined;
  try {
    held = claim();
  } catch {
    return; // the database busy: try again
  }
  if (held === undefined) return;
  let lease = held;
  clearInterval(timer);
  process.stdout.write('CLAIMED\n');
  setInterval(() => {
    if (mode !== 'renew') return;
    const until = Date.now() + leaseMs;
    if (store.jobs.renewClaim(id, lease, until)) lease = until;
  }, leaseMs / 3);
}, 20);
