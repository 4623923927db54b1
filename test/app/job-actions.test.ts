// Cancel and retry (main/app/job-actions.ts), as the app and the CLI use them, on the embedded engine.
// A retry goes through the submission journal and never pays twice: every send is journaled first, so
// the journal's entries are the requests that may have reached the service.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancelJob, retryJob, retryOperationId } from '../../main/app/job-actions.ts';
import { createServices, type Services } from '../../main/app/services.ts';
import { SubmissionUnknownError } from '../../main/jobs/submit.ts';
import { DEFAULT_TIMING, scaleTiming } from '../../main/jobs/schedule.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { AppError } from '../../shared/errors.ts';
import { rejection, tempDir } from '../helpers.ts';
import { sentCreate } from '../store/sent-create.ts';
import { dataDirWithLostCreate } from './lost-create.ts';

let services: Services;

beforeEach(async () => {
  services = await createServices(
    { dataDir: tempDir() },
    { engineSpeed: 500, timing: scaleTiming(DEFAULT_TIMING, 500) },
  );
});

afterEach(async () => {
  await services.close();
});

async function created(prompt: string): Promise<JobRecord> {
  const outcome = await services.submitter.submit('createTextToImage', { body: { prompt } }, { label: prompt });
  return outcome.job!;
}

const journalSize = () => services.store.journal.list(1000).length;

const refusal = (promise: Promise<unknown>) => rejection(promise, AppError);

describe('cancel', () => {
  it('stops following a job here, once', async () => {
    const job = await created('a red lamp');
    const stopped = cancelJob(services.store, job);
    expect(stopped).toMatchObject({ state: 'failed', rawStatus: 'cancelled_here', final: true, nextPollAt: null });
    expect(stopped.error).toMatch(/may still finish there/);
    const again = await refusal(Promise.resolve().then(() => cancelJob(services.store, stopped)));
    expect(again).toMatchObject({ code: 'conflict', exitCode: 2 });
    expect(again.message).toMatch(/has already ended .*nothing to cancel/);
  });
});

describe('retry', () => {
  it('sends a cancelled job again under its own operation, and answers that job while it runs', async () => {
    const job = cancelJob(services.store, await created('a wooden crate'));
    const first = await retryJob(services, job);
    expect(first).toMatchObject({ status: 'created', operationId: retryOperationId(job, 1) });
    expect(first.job).toMatchObject({ label: 'a wooden crate', final: false });
    expect(first.job.id).not.toBe(job.id);
    const size = journalSize();
    // The first retry's job has not ended: retrying the same job again answers it, nothing is sent.
    expect(await retryJob(services, job)).toMatchObject({ status: 'replayed', job: { id: first.job.id } });
    expect(journalSize()).toBe(size);
    // Once it has failed (here: cancelled too), a retry of the same job is a new operation.
    cancelJob(services.store, first.job);
    const second = await retryJob(services, job);
    expect(second).toMatchObject({ status: 'created', operationId: retryOperationId(job, 2) });
    expect(journalSize()).toBe(size + 1);
  });

  it('replays a retry whose answer was lost instead of sending it again', async () => {
    const job = cancelJob(services.store, await created('a stone bench'));
    const original = services.store.journal.get(job.operationId!)!;
    // A first retry that was sent and whose answer never came.
    const lost = retryOperationId(job, 1);
    sentCreate(
      services.store,
      lost,
      { endpoint: original.endpoint, params: original.params, body: original.body },
      Date.now(),
    );
    services.store.journal.markUnknown(lost, 'the connection was reset', Date.now());
    const size = journalSize();
    const error = await refusal(retryJob(services, job));
    expect(error).toBeInstanceOf(SubmissionUnknownError);
    expect(error.message).toContain(lost);
    expect(error.message).toMatch(/NOT sent again/);
    expect(journalSize()).toBe(size);
    expect(services.store.journal.get(retryOperationId(job, 2))).toBeUndefined();
  });

  it('sends a job again only once when asked twice at the same time', async () => {
    const job = cancelJob(services.store, await created('a brass key'));
    const [a, b] = await Promise.allSettled([retryJob(services, job), retryJob(services, job)]);
    expect(a.status).toBe('fulfilled');
    expect(b).toMatchObject({
      status: 'rejected',
      reason: { code: 'conflict', message: expect.stringMatching(/already being sent again/) },
    });
    expect(services.store.journal.get(retryOperationId(job, 2))).toBeUndefined();
  });

  it('refuses a job whose own create may have reached the service, a job not created here, and one that has not ended', async () => {
    const running = await created('a tin cup');
    expect((await refusal(retryJob(services, running))).message).toMatch(
      /only a failed, cancelled or abandoned job can be retried/,
    );
    const found = services.store.jobs.insert({
      kind: 'text_to_image',
      label: 'found',
      remoteId: 'SESSION_found',
      state: 'failed',
      rawStatus: 'failed',
      final: true,
      now: Date.now(),
    });
    expect((await refusal(retryJob(services, found))).message).toMatch(/no recorded request to send again/);
  });
});

describe('retry after a lost create', () => {
  it('sends nothing for a job whose answer was lost and that was then cancelled: it is reconciled first', async () => {
    const crashed = await createServices({ dataDir: dataDirWithLostCreate() }, { engineSpeed: 500 });
    try {
      const lost = crashed.store.jobs.list({}).find((j) => j.operationId === 'op_lost')!;
      expect(lost.state).toBe('submission_unknown');
      const stopped = cancelJob(crashed.store, lost);
      const size = crashed.store.journal.list(1000).length;
      const error = await refusal(retryJob(crashed, stopped));
      expect(error).toMatchObject({ code: 'conflict' });
      expect(error.message).toMatch(/may already exist at the service.*asset-studio reconcile op_lost/);
      expect(crashed.store.journal.list(1000)).toHaveLength(size);
    } finally {
      await crashed.close();
    }
  });
});
