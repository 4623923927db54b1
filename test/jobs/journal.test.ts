// The submission journal: every create is journaled before it is sent; a lost answer becomes
// submission_unknown, is never resent on its own, and is reconciled with what the service did.
import { afterEach, describe, expect, it } from 'vitest';
import { OperationConflictError, SubmissionUnknownError } from '../../main/jobs/submit.ts';
import { attachOperation, reconcileJournal, reconcileOperation } from '../../main/jobs/reconcile.ts';
import { makeHarness, PNG, type Harness } from './harness.ts';
import type { JobRecord } from '../../main/store/jobs.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function catchError(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('submission journal', () => {
  it('journals a create before sending it and links the answer to a job', async () => {
    h = await makeHarness();
    // The engine holds the answer back: while it does, the journal must already hold the request.
    h.engine.faults.add({ kind: 'slow', delayMs: 3000, match: { endpoint: 'createTextToImage' } });
    let answered = false;
    const pending = h.submitter
      .submit('createTextToImage', { body: { prompt: 'a lamp' } }, { label: 'lamp' })
      .finally(() => (answered = true));
    let journaledWhileInFlight = false;
    while (!answered && !journaledWhileInFlight) {
      journaledWhileInFlight = h.store.journal
        .list(10)
        .some((e) => e.endpoint === 'createTextToImage' && e.state === 'pending' && e.sentAt !== null);
      await new Promise((r) => setTimeout(r, 10));
    }
    const outcome = await pending;
    expect(journaledWhileInFlight).toBe(true);
    const entry = h.store.journal.get(outcome.operationId)!;
    expect(entry).toMatchObject({ state: 'answered', remoteId: outcome.job!.remoteId, jobId: outcome.job!.id });
    expect(entry.body).toEqual({ prompt: 'a lamp' });
  });

  it('a refused create is journaled as rejected and makes no job', async () => {
    h = await makeHarness();
    h.engine.faults.add({ kind: 'status', status: 503, match: { endpoint: 'createTextToImage' } });
    const error = await catchError(
      h.submitter.submit('createTextToImage', { body: { prompt: 'a lamp' } }, { label: 'lamp' }),
    );
    expect(error.message).toMatch(/503/);
    const [entry] = h.store.journal.list(1);
    expect(entry!.state).toBe('rejected');
    expect(h.store.jobs.count({})).toBe(0);
  });

  it('"processed but dropped the response": submission_unknown, then reconciled to the right session', async () => {
    h = await makeHarness({ speed: 50 });
    const added: string[] = [];
    h.tracker.on('job-added', (j) => added.push(j.state));
    h.engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createImageTo3d' } });
    const creates = h.engine.faults.requestCount('createImageTo3d');
    const outcome = await h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair' });
    expect(added).toContain('submission_unknown');
    expect(outcome.status).toBe('reconciled');
    expect(h.engine.faults.requestCount('createImageTo3d') - creates).toBe(1); // never sent twice
    const list = await h.client.listImageTo3d({ limit: 100 });
    expect(list.totalResults).toBe(1);
    expect(outcome.job!.remoteId).toBe(list.results[0]!.session_code);
    expect(h.store.journal.get(outcome.operationId)!.state).toBe('reconciled');
    h.tracker.start();
    const [done] = await h.tracker.waitFor([outcome.job!.id], AbortSignal.timeout(20_000));
    expect(done!.state).toBe('succeeded');
  });

  it('when several sessions match, the user decides; --operation-id never sends it again', async () => {
    h = await makeHarness({ speed: 50 });
    // Another session with the same input, made at the same time by another program.
    await h.client.createImageTo3d({ image_url: PNG });
    h.engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createImageTo3d' } });
    const error = await catchError(
      h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair' }),
    );
    expect(error).toBeInstanceOf(SubmissionUnknownError);
    expect(error.message).toMatch(/NOT sent again/);
    const op = (error as SubmissionUnknownError).operationId;
    const job = h.store.jobs.require((error as SubmissionUnknownError).jobId!);
    expect(job).toMatchObject({ state: 'submission_unknown', remoteId: null });

    const before = h.engine.faults.requestCount('createImageTo3d');
    const replay = await catchError(
      h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair', operationId: op }),
    );
    expect(replay).toBeInstanceOf(SubmissionUnknownError);
    expect(h.engine.faults.requestCount('createImageTo3d')).toBe(before);

    const outcome = await reconcileOperation(
      { store: h.store, client: h.client, tracker: h.tracker },
      h.store.journal.get(op)!,
    );
    expect(outcome.status).toBe('ambiguous');
    const candidates = outcome.status === 'ambiguous' ? outcome.candidates : [];
    expect(candidates).toHaveLength(2);
    const attached = attachOperation(
      { store: h.store, client: h.client, tracker: h.tracker },
      h.store.journal.get(op)!,
      candidates[0]!.sessionCode,
    );
    expect(attached).toMatchObject({ id: job.id, remoteId: candidates[0]!.sessionCode, state: 'queued' });
    const again = await h.submitter.submit(
      'createImageTo3d',
      { body: { image_url: PNG } },
      { label: 'chair', operationId: op },
    );
    expect(again.status).toBe('replayed');
    expect(h.engine.faults.requestCount('createImageTo3d')).toBe(before);
  });

  it('--operation-id replays an answered operation and refuses a different request under the same id', async () => {
    h = await makeHarness();
    const first = await h.submitter.submit(
      'createTextToImage',
      { body: { prompt: 'a lamp' } },
      { label: 'lamp', operationId: 'op_mine_1' },
    );
    expect(first.operationId).toBe('op_mine_1');
    const before = h.engine.faults.requestCount('createTextToImage');
    const replay = await h.submitter.submit(
      'createTextToImage',
      { body: { prompt: 'a lamp' } },
      { label: 'lamp', operationId: 'op_mine_1' },
    );
    expect(replay.status).toBe('replayed');
    expect(replay.job!.id).toBe(first.job!.id);
    expect(h.engine.faults.requestCount('createTextToImage')).toBe(before);
    const conflict = await catchError(
      h.submitter.submit(
        'createTextToImage',
        { body: { prompt: 'a chair' } },
        { label: 'chair', operationId: 'op_mine_1' },
      ),
    );
    expect(conflict).toBeInstanceOf(OperationConflictError);
  });

  it('a lost preview request is reconciled by reading the session', async () => {
    h = await makeHarness({ speed: 500 });
    const older = await h.submitter.submit('createImageTo3dLegacy', { body: { image_url: PNG } }, { label: 'older' });
    h.tracker.start();
    await h.tracker.waitFor([older.job!.id], AbortSignal.timeout(20_000));
    h.engine.faults.add({ kind: 'drop-response', match: { endpoint: 'preview' } });
    const outcome = await h.submitter.submit(
      'preview',
      { params: { session_code: older.job!.remoteId! }, body: {} },
      { label: 'preview' },
    );
    expect(outcome.status).toBe('reconciled');
    expect(outcome.job!).toMatchObject({ remoteId: older.job!.remoteId, step: 'preview' });
  });

  it('a style is recorded as a job with its status, but never polled (the service has no read endpoint)', async () => {
    h = await makeHarness();
    const outcome = await h.submitter.submit(
      'createStyle',
      { body: { zip_url: 'https://example.com/s.zip', description: 'ink' } },
      { label: 'ink' },
    );
    expect(outcome.job).toMatchObject({ kind: 'style', state: 'running', rawStatus: 'training', nextPollAt: null });
    h.tracker.start();
    await new Promise((r) => setTimeout(r, 50));
    expect(h.engine.faults.history().filter((r) => r.method === 'GET')).toHaveLength(0);
  });

  it('a style whose answer was lost is shown as a style job, not as an image-to-3D one', async () => {
    h = await makeHarness();
    h.engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createStyle' } });
    const error = (await catchError(
      h.submitter.submit(
        'createStyle',
        { body: { zip_url: 'https://example.com/s.zip', description: 'ink' } },
        { label: 'ink' },
      ),
    )) as SubmissionUnknownError;
    expect(error).toBeInstanceOf(SubmissionUnknownError);
    expect(h.store.jobs.get(error.jobId!)).toMatchObject({ kind: 'style', state: 'submission_unknown', label: 'ink' });
  });

  it('reconcileJournal lists the open operations, and abandons one on request', async () => {
    h = await makeHarness({ speed: 50 });
    await h.client.createImageTo3d({ image_url: PNG });
    h.engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createImageTo3d' } });
    const error = (await catchError(
      h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair' }),
    )) as SubmissionUnknownError;
    const deps = { store: h.store, client: h.client, tracker: h.tracker };
    const [open] = await reconcileJournal(deps, {});
    expect(open).toMatchObject({ operationId: error.operationId, outcome: 'ambiguous', reconciled: false });
    const [abandoned] = await reconcileJournal(deps, { operationId: error.operationId, abandon: true });
    expect(abandoned!.job).toMatchObject({ state: 'failed', rawStatus: 'abandoned', final: true });
    expect(await reconcileJournal(deps, {})).toEqual([]);
    await expect(reconcileJournal(deps, { abandon: true })).rejects.toThrow(/Name the operation/);
  });

  it('reconcile goes on past a row that fails, makes jobs of the rows of a writer that died, and leaves a live one', async () => {
    h = await makeHarness({ speed: 50 });
    const dead = `${2 ** 30}@${'0'.repeat(8)}:1`; // a writer no process is: killed while it sent
    const made = await h.client.createImageTo3d({ image_url: PNG }); // what the dead writer's create made
    const now = Date.now();
    const journal = h.store.journal;
    const failing = journal.begin({
      endpoint: 'preview',
      params: { session_code: 'SESSION_nowhere' },
      body: {},
      writer: dead,
      label: 'a preview',
      now: now - 2,
    });
    const lost = journal.begin({
      endpoint: 'createImageTo3d',
      params: {},
      body: { image_url: PNG },
      writer: dead,
      label: 'chair',
      now: now - 1,
    });
    journal.markSent(lost.operationId, now - 1);
    const live = journal.begin({ endpoint: 'createImageTo3d', params: {}, body: { image_url: PNG }, now });

    const results = await reconcileJournal({ store: h.store, client: h.client, tracker: h.tracker }, {});
    expect(results.map((r) => [r.operationId, r.reconciled, r.outcome.split(':')[0]])).toEqual([
      [failing.operationId, false, 'failed'],
      [lost.operationId, true, `reconciled with ${made.session_code}`],
      [live.operationId, false, `being sent by process ${process.pid}`],
    ]);
    expect(results[0]!.advice).toMatch(/SESSION_nowhere|not found|404/i);
    // The dead writer's rows became jobs the library shows, under their names; the live one's was left to it.
    expect(h.store.jobs.get(journal.get(failing.operationId)!.jobId!)).toMatchObject({
      state: 'submission_unknown',
      label: 'a preview',
    });
    expect(h.store.jobs.get(results[1]!.job!.id)).toMatchObject({ label: 'chair', remoteId: made.session_code });
    expect(journal.get(live.operationId)).toMatchObject({ state: 'pending', jobId: null });
  });

  it('a running tracker shows the create of a process that died on the wire as a job, without a restart', async () => {
    h = await makeHarness({ tracker: { followIntervalMs: 20 } });
    const added = new Promise<JobRecord>((resolve) => h!.tracker.on('job-added', resolve));
    h.tracker.start();
    const dead = `${2 ** 30}@${'0'.repeat(8)}:1`; // the CLI beside the app, killed while its create was sent
    const entry = h.store.journal.begin({
      endpoint: 'createImageTo3d',
      params: {},
      body: { image_url: PNG },
      writer: dead,
      label: 'chair',
      now: Date.now(),
    });
    h.store.journal.markSent(entry.operationId, Date.now());
    const job = await added;
    expect(job).toMatchObject({ operationId: entry.operationId, state: 'submission_unknown', label: 'chair' });
    expect(h.store.journal.get(entry.operationId)).toMatchObject({ state: 'unknown', jobId: job.id });
  });
});
