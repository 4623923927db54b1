// A full disk under the tracker (#26 item 8): what a read finds cannot be stored. Before, the failure escaped
// from the scheduler's timer (an uncaught error: the web host and the app's main process ended). Now it is a
// 'store-error' event, a wait ends with the DiskFullError in words, and the job is read again once there is room.
import { afterEach, expect, it } from 'vitest';
import { DiskFullError } from '../../shared/errors.ts';
import { makeHarness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

it('a store write failing on a full disk is reported and retried, never thrown out of the timer', async () => {
  h = await makeHarness({ speed: 500 });
  const created = await h.submitter.submit('createTextToImage', { body: { prompt: 'a lamp' } }, { label: 'lamp' });
  const id = created.job!.id;
  const jobs = h.store.jobs;
  const updateStatus = jobs.updateStatus.bind(jobs);
  const markPolling = jobs.markPolling.bind(jobs);
  let full = true;
  const fail = () => {
    throw new DiskFullError(h!.dir, 'the local database (asset-studio.db)');
  };
  // The fault at the store: every status write and every claim of a read fail while the disk is full.
  jobs.updateStatus = (...args) => (full ? fail() : updateStatus(...args));
  let claims = 0;
  jobs.markPolling = (...args) => (full && ++claims > 1 ? fail() : markPolling(...args));
  const storeErrors: unknown[] = [];
  h.tracker.on('store-error', (error) => storeErrors.push(error));
  h.tracker.start();
  const waited = await h.tracker.waitFor([id], AbortSignal.timeout(20_000)).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(waited).toBeInstanceOf(DiskFullError);
  expect((waited as Error).message).toMatch(new RegExp(`^The disk holding ${h.dir} is full: the local database`));
  expect(storeErrors[0]).toBeInstanceOf(DiskFullError);
  // Wait for a retry of the scheduler (a claim refused on the full disk), then make room.
  const retried = claims + 1;
  for (const end = Date.now() + 20_000; claims < retried; ) {
    expect(Date.now() < end, 'the scheduler tried again').toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  full = false;
  const [done] = await h.tracker.waitFor([id], AbortSignal.timeout(20_000));
  expect(done!.state).toBe('succeeded');
});
