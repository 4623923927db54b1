// The tracker against the engine: every resource type to its end, restart recovery, unknown statuses,
// 429 storms and read errors. No timing is asserted; only what happens and in which order.
import { afterEach, describe, expect, it } from 'vitest';
import { RequestBudget } from '../../main/jobs/budget.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { makeHarness, PNG, type Harness, submitOneOfEachType } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function finish(harness: Harness, ids: string[]): Promise<JobRecord[]> {
  harness.tracker.start();
  return harness.tracker.waitFor(ids, AbortSignal.timeout(20_000));
}

describe('job tracker', () => {
  it('follows every resource type to its end and reports events', async () => {
    h = await makeHarness({ speed: 500 });
    const { submitter, client } = h;
    const events: string[] = [];
    for (const e of ['job-added', 'progress', 'finished', 'failed'] as const)
      h.tracker.on(e, (j) => events.push(`${e}:${j.kind}`));
    const jobs = await submitOneOfEachType(submitter);
    h.engine.faults.add({ kind: 'session-failure', match: { endpoint: 'createTextToImage' } }); // the next one fails
    jobs.push(
      await submitter.submit(
        'createTextToImage',
        { body: { prompt: 'a lamp that will not be drawn' } },
        { label: 'bad' },
      ),
    );
    const done = await finish(
      h,
      jobs.map((j) => j.job!.id),
    );
    expect(done.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'failed']);
    expect(done[0]!.percent).toBe(100);
    expect((done[0]!.result as { mesh_url_glb: string }).mesh_url_glb).toMatch(/^http/);
    expect(done[4]!.error).toMatch(/could not finish/);
    expect(events).toContain('finished:image_to_3d');
    expect(events).toContain('failed:text_to_image');

    // Text prompts of the animation session, and the older flow's steps, each as their own job.
    const animation = done[3]!;
    const prompts = await submitter.submit(
      'submitTextAnimations',
      { body: { session_code: animation.remoteId!, texts: ['walk', 'jump'] } },
      { label: 'moves' },
    );
    const older = await submitter.submit('createImageTo3dLegacy', { body: { image_url: PNG } }, { label: 'older' });
    const [p, spin] = await finish(h, [prompts.job!.id, older.job!.id]);
    expect(p!.state).toBe('succeeded');
    expect(spin!.rawStatus).toBe('spin_generate_done');
    expect((spin!.result as { inference: unknown[] }).inference).toHaveLength(4); // read from the list: the spin images
    const preview = await submitter.submit(
      'preview',
      { params: { session_code: older.job!.remoteId! }, body: { selected_spin_index: 1 } },
      { label: 'preview' },
    );
    const [previewed] = await finish(h, [preview.job!.id]);
    expect(previewed).toMatchObject({ state: 'succeeded', step: 'preview', rawStatus: 'preview_done' });
    const refine = await submitter.submit(
      'refine',
      { params: { session_code: older.job!.remoteId! } },
      { label: 'refine' },
    );
    const [refined] = await finish(h, [refine.job!.id]);
    expect(refined).toMatchObject({ state: 'succeeded', step: 'refine', rawStatus: 'refine_done' });
    expect((await client.getMesh(older.job!.remoteId!))[0]!.status).toBe('refine_done');
  });

  it('resumes unfinished jobs after a restart', async () => {
    h = await makeHarness({ speed: 100 });
    const created = await h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair' });
    await h.tracker.stop(); // the app quits before the job ends
    expect(h.store.jobs.require(created.job!.id).final).toBe(false);
    const tracker = h.restartTracker();
    tracker.start();
    const [job] = await tracker.waitFor([created.job!.id], AbortSignal.timeout(20_000));
    expect(job!.state).toBe('succeeded');
  });

  it('keeps a job with an unknown status alive, shown raw, until the chosen limit', async () => {
    h = await makeHarness({ speed: 5 }); // slow enough that a loaded machine still reads it while it runs
    h.engine.faults.add({
      kind: 'session-status',
      status: 'reticulating_splines',
      match: { endpoint: 'createTextToImage' },
      times: 2,
    });
    const a = await h.submitter.submit('createTextToImage', { body: { prompt: 'odd' } }, { label: 'odd' });
    h.tracker.start();
    const seen = await new Promise<JobRecord>((resolve) =>
      h!.tracker.on('progress', (j) => j.rawStatus === 'reticulating_splines' && resolve(j)),
    );
    expect(seen).toMatchObject({ state: 'unknown', final: false, rawStatus: 'reticulating_splines' });
    const [done] = await h.tracker.waitFor([a.job!.id], AbortSignal.timeout(20_000));
    expect(done!.state).toBe('succeeded'); // the status became known again: completed
    await h.tracker.stop();

    const limited = h.restartTracker({ unknownStatusLimitMs: 0 });
    const b = await h.submitter.submit('createTextToImage', { body: { prompt: 'odd again' } }, { label: 'odd' });
    limited.start();
    const [failed] = await limited.waitFor([b.job!.id], AbortSignal.timeout(20_000));
    expect(failed).toMatchObject({ state: 'failed', rawStatus: 'reticulating_splines' });
    expect(failed!.error).toMatch(/does not know/);
  });

  it('429 storm: nothing is sent before Retry-After, then every job completes', async () => {
    // One request at a time, so every request after a 429 was sent after the client saw it.
    h = await makeHarness({
      speed: 100,
      tracker: { budget: new RequestBudget({ maxConcurrent: 1, maxPerSecond: 1000 }) },
    });
    const jobs = [];
    for (let i = 0; i < 4; i++)
      jobs.push(await h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: `c${i}` }));
    h.engine.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 1, times: 3, match: { method: 'GET' } });
    const done = await finish(
      h,
      jobs.map((j) => j.job!.id),
    );
    expect(done.every((j) => j.state === 'succeeded')).toBe(true);
    const history = h.engine.faults.history().filter((r) => r.method === 'GET');
    const storms = history.filter((r) => r.fault === 'status');
    expect(storms.length).toBe(3);
    // After each 429, the next request goes out no earlier than its Retry-After (1 s).
    for (const hit of storms) {
      const next = history.slice(history.indexOf(hit) + 1).find((r) => r.fault === undefined);
      expect(next!.at - hit.at).toBeGreaterThanOrEqual(1000 - 5); // 5 ms: clock granularity between processes' views
    }
  });

  it('a session the service no longer knows fails the job with a clear message', async () => {
    h = await makeHarness({ speed: 10 });
    const job = h.tracker.track({ kind: 'text_to_image', id: 'SESSION_gone', label: 'ghost' });
    const [done] = await finish(h, [job.id]);
    expect(done).toMatchObject({ state: 'failed', final: true });
    expect(done!.error).toMatch(/no longer knows SESSION_gone/);
  });

  it('read errors (5xx, resets) keep the job alive and it still completes', async () => {
    h = await makeHarness({ speed: 100 });
    const errors: string[] = [];
    h.tracker.on('read-error', (_j, e) => errors.push(e.kind));
    const answered: string[] = [];
    h.tracker.on('read-answered', (j) => answered.push(j.rawStatus ?? 'none'));
    const created = await h.submitter.submit('createTextToImage', { body: { prompt: 'a chair' } }, { label: 'chair' });
    h.engine.faults.add({ kind: 'status', status: 503, times: 2, match: { endpoint: 'getTextToImage' } });
    h.engine.faults.add({ kind: 'reset', match: { endpoint: 'getTextToImage' } });
    const [done] = await finish(h, [created.job!.id]);
    expect(done!.state).toBe('succeeded');
    expect(errors.length).toBeGreaterThanOrEqual(3);
    // Only the reads that got an answer say the service is there (the app's reachability check waits on them).
    expect(answered.length).toBeGreaterThanOrEqual(1);
  });
});
