import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Store } from '../../main/store/database.ts';
import { RecordNotFoundError } from '../../main/store/errors.ts';

let store: Store;
beforeEach(() => {
  store = openDatabase(':memory:');
  return () => store.close();
});

describe('jobs.insert / get', () => {
  it('with a remote id: queued and due at once', () => {
    const job = store.jobs.insert({ kind: 'image_to_3d', label: 'chair.png', remoteId: 's1', now: 100 });
    expect(job).toMatchObject({
      kind: 'image_to_3d',
      label: 'chair.png',
      remoteId: 's1',
      state: 'queued',
      rawStatus: '',
      percent: null,
      final: false,
      createdAt: 100,
      updatedAt: 100,
      lastChangeAt: 100,
      nextPollAt: 100,
      finishedAt: null,
      unknownSince: null,
      pollCount: 0,
      outputsFetched: false,
      result: null,
      texts: null,
      step: null,
    });
    expect(job.id).toMatch(/^job_[0-9a-f]{20}$/);
    expect(store.jobs.get(job.id)).toEqual(job);
    expect(store.jobs.get('job_missing')).toBeUndefined();
  });

  it('without a remote id: submission_unknown and not polled', () => {
    const job = store.jobs.insert({ kind: 'v3_session', label: 'retopology', now: 100 });
    expect(job).toMatchObject({ remoteId: null, state: 'submission_unknown', nextPollAt: null });
    expect(store.jobs.due(1e12, 10)).toEqual([]);
  });

  it('keeps the older flow step, prompt texts, links and a given status', () => {
    const upload = store.jobs.insert({
      id: 'job_upload',
      kind: 'animation_session',
      label: 'hero.glb',
      remoteId: 'a1',
      now: 1,
    });
    const prompts = store.jobs.insert({
      kind: 'animation_prompt',
      label: 'wave, jump',
      remoteId: 'a1',
      texts: ['wave', 'jump'],
      parentId: upload.id,
      state: 'running',
      rawStatus: 'text_processing',
      percent: 10,
      result: { prompts: [] },
      nextPollAt: 50,
      now: 2,
    });
    expect(prompts).toMatchObject({
      texts: ['wave', 'jump'],
      parentId: 'job_upload',
      state: 'running',
      rawStatus: 'text_processing',
      percent: 10,
      result: { prompts: [] },
      nextPollAt: 50,
    });
    const done = store.jobs.insert({
      kind: 'style',
      label: 'style',
      remoteId: 'st',
      state: 'succeeded',
      rawStatus: 'trained',
      final: true,
      now: 3,
    });
    expect(done.finishedAt).toBe(3);
    const spin = store.jobs.insert({
      kind: 'image_to_3d_older',
      label: 'lamp.png',
      remoteId: 'old1',
      step: 'spin',
      now: 4,
    });
    expect(spin.step).toBe('spin');
  });
});

describe('jobs queries', () => {
  it('findByRemoteId picks the newest match, narrowed by kind and step', () => {
    // Two steps of one older-flow session: one remote id.
    const olderStep = (step: 'spin' | 'preview', now: number) =>
      store.jobs.insert({ kind: 'image_to_3d_older', label: 'lamp', remoteId: 'old1', step, now });
    const spin = olderStep('spin', 1);
    const preview = olderStep('preview', 2);
    expect(store.jobs.findByRemoteId('old1')?.id).toBe(preview.id);
    expect(store.jobs.findByRemoteId('old1', 'image_to_3d_older', 'spin')?.id).toBe(spin.id);
    expect(store.jobs.findByRemoteId('old1', 'mesh_availability')).toBeUndefined();
    expect(store.jobs.findByRemoteId('nope')).toBeUndefined();
  });

  it('list: newest first, filtered, paged; count agrees', () => {
    const a = store.jobs.insert({ kind: 'image_to_3d', label: 'chair.png', remoteId: 'r_a', now: 1 });
    const b = store.jobs.insert({ kind: 'text_to_image', label: '100% red_chair', remoteId: 'r_b', now: 2 });
    const c = store.jobs.insert({ kind: 'image_to_3d', label: 'table.png', remoteId: 'r_c', now: 2 });
    store.jobs.updateStatus(a.id, { state: 'succeeded', rawStatus: 'complete', final: true, now: 3 });
    const ids = (jobs: { id: string }[]) => jobs.map((j) => j.id);

    expect(ids(store.jobs.list())).toEqual([c.id, b.id, a.id]);
    expect(ids(store.jobs.list({ final: false }))).toEqual([c.id, b.id]);
    expect(ids(store.jobs.list({ final: true }))).toEqual([a.id]);
    expect(ids(store.jobs.list({ kinds: ['image_to_3d'] }))).toEqual([c.id, a.id]);
    expect(ids(store.jobs.list({ kinds: [] }))).toEqual([]);
    expect(ids(store.jobs.list({ search: 'CHAIR' }))).toEqual([b.id, a.id]);
    expect(ids(store.jobs.list({ search: '0% r' }))).toEqual([b.id]);
    expect(ids(store.jobs.list({ search: '%' }))).toEqual([b.id]); // LIKE wildcards are literal
    expect(ids(store.jobs.list({ search: 'r_c' }))).toEqual([c.id]); // the remote id matches too
    expect(ids(store.jobs.list({ limit: 1, offset: 1 }))).toEqual([b.id]);
    expect(store.jobs.count()).toBe(3);
    expect(store.jobs.count({ final: false, kinds: ['image_to_3d'] })).toBe(1);
  });

  it('listActive and due', () => {
    const early = store.jobs.insert({ kind: 'image_to_3d', label: 'a', remoteId: 'r1', nextPollAt: 50, now: 1 });
    const late = store.jobs.insert({ kind: 'image_to_3d', label: 'b', remoteId: 'r2', nextPollAt: 10, now: 2 });
    const future = store.jobs.insert({ kind: 'image_to_3d', label: 'c', remoteId: 'r3', nextPollAt: 500, now: 3 });
    const finished = store.jobs.insert({ kind: 'image_to_3d', label: 'd', remoteId: 'r4', nextPollAt: 10, now: 4 });
    store.jobs.updateStatus(finished.id, { state: 'failed', rawStatus: 'failed', final: true, now: 5 });

    expect(store.jobs.listActive().map((j) => j.id)).toEqual([future.id, late.id, early.id]);
    expect(store.jobs.due(100, 10).map((j) => j.id)).toEqual([late.id, early.id]);
    expect(store.jobs.due(100, 1).map((j) => j.id)).toEqual([late.id]);
    expect(store.jobs.due(500, 10).map((j) => j.id)).toEqual([late.id, early.id, future.id]);
  });
});

describe('jobs.updateStatus', () => {
  it('moves lastChangeAt only when the raw status or percent changed', () => {
    const { id } = store.jobs.insert({ kind: 'image_to_3d', label: 'a', remoteId: 'r', now: 0 });
    let job = store.jobs.updateStatus(id, {
      state: 'running',
      rawStatus: 'in_progress',
      percent: 10,
      final: false,
      now: 10,
    });
    expect(job).toMatchObject({
      state: 'running',
      rawStatus: 'in_progress',
      percent: 10,
      lastChangeAt: 10,
      updatedAt: 10,
    });
    job = store.jobs.updateStatus(id, {
      state: 'running',
      rawStatus: 'in_progress',
      percent: 10,
      final: false,
      now: 20,
    });
    expect(job).toMatchObject({ lastChangeAt: 10, updatedAt: 20 });
    job = store.jobs.updateStatus(id, {
      state: 'running',
      rawStatus: 'in_progress',
      percent: 40,
      final: false,
      now: 30,
    });
    expect(job.lastChangeAt).toBe(30);
    job = store.jobs.updateStatus(id, { state: 'running', rawStatus: 'in_progress', final: false, now: 40 });
    expect(job).toMatchObject({ percent: null, lastChangeAt: 40 });
    job = store.jobs.updateStatus(id, {
      state: 'running',
      rawStatus: 'in_progress',
      percent: null,
      final: false,
      now: 50,
    });
    expect(job.lastChangeAt).toBe(40);
    job = store.jobs.updateStatus(id, { state: 'running', rawStatus: 'processing', final: false, now: 60 });
    expect(job.lastChangeAt).toBe(60);
  });

  it('keeps unknownSince while the status stays unknown and clears it after', () => {
    const { id } = store.jobs.insert({ kind: 'image_to_3d', label: 'a', remoteId: 'r', now: 0 });
    expect(
      store.jobs.updateStatus(id, { state: 'unknown', rawStatus: 'thinking', final: false, now: 10 }).unknownSince,
    ).toBe(10);
    expect(
      store.jobs.updateStatus(id, { state: 'unknown', rawStatus: 'pondering', final: false, now: 20 }).unknownSince,
    ).toBe(10);
    expect(
      store.jobs.updateStatus(id, { state: 'running', rawStatus: 'in_progress', final: false, now: 30 }).unknownSince,
    ).toBeNull();
    expect(
      store.jobs.updateStatus(id, { state: 'unknown', rawStatus: 'thinking', final: false, now: 40 }).unknownSince,
    ).toBe(40);
  });

  it('sets finishedAt when the job becomes final, once', () => {
    const { id } = store.jobs.insert({ kind: 'image_to_3d', label: 'a', remoteId: 'r', now: 0 });
    expect(
      store.jobs.updateStatus(id, { state: 'running', rawStatus: 'in_progress', final: false, now: 10 }).finishedAt,
    ).toBeNull();
    const done = store.jobs.updateStatus(id, {
      state: 'succeeded',
      rawStatus: 'complete',
      percent: 100,
      final: true,
      now: 20,
    });
    expect(done).toMatchObject({ final: true, finishedAt: 20 });
    expect(
      store.jobs.updateStatus(id, { state: 'succeeded', rawStatus: 'complete', percent: 100, final: true, now: 30 })
        .finishedAt,
    ).toBe(20);
    expect(store.jobs.listActive()).toEqual([]);
  });

  it('keeps result and error when omitted, clears them with null', () => {
    const { id } = store.jobs.insert({ kind: 'image_to_3d', label: 'a', remoteId: 'r', now: 0 });
    const base = { state: 'running', rawStatus: 'in_progress', final: false } as const;
    expect(store.jobs.updateStatus(id, { ...base, result: { a: 1 }, error: 'slow', now: 1 })).toMatchObject({
      result: { a: 1 },
      error: 'slow',
    });
    expect(store.jobs.updateStatus(id, { ...base, now: 2 })).toMatchObject({ result: { a: 1 }, error: 'slow' });
    expect(store.jobs.updateStatus(id, { ...base, result: null, error: null, now: 3 })).toMatchObject({
      result: null,
      error: null,
    });
  });

  it('throws for an unknown id', () => {
    expect(() =>
      store.jobs.updateStatus('job_missing', { state: 'running', rawStatus: 'x', final: false, now: 1 }),
    ).toThrow(RecordNotFoundError);
  });
});

describe('jobs.schedule / attachRemote / markOutputsFetched', () => {
  it('schedule counts polls', () => {
    const { id } = store.jobs.insert({ kind: 'image_to_3d', label: 'a', remoteId: 'r', now: 0 });
    store.jobs.schedule(id, 100, 10);
    expect(store.jobs.schedule(id, 200, 20)).toMatchObject({ nextPollAt: 200, lastPolledAt: 20, pollCount: 2 });
    expect(store.jobs.schedule(id, null, 30).nextPollAt).toBeNull();
    expect(() => store.jobs.schedule('job_missing', 1, 1)).toThrow(RecordNotFoundError);
  });

  it('attachRemote gives a lost submission its session and polls it at once', () => {
    const { id } = store.jobs.insert({ kind: 'image_to_3d', label: 'a', now: 0 });
    const job = store.jobs.attachRemote(id, 'sess_9', 50);
    expect(job).toMatchObject({ remoteId: 'sess_9', state: 'queued', nextPollAt: 50, updatedAt: 50 });
    expect(store.jobs.due(50, 10).map((j) => j.id)).toEqual([id]);
    expect(store.jobs.findByRemoteId('sess_9')?.id).toBe(id);
    expect(store.jobs.attachRemote(id, 'sess_9', 60).remoteId).toBe('sess_9'); // same id again is fine
    expect(() => store.jobs.attachRemote(id, 'sess_other', 70)).toThrow(/already attached to sess_9/);
    expect(() => store.jobs.attachRemote('job_missing', 'x', 70)).toThrow(RecordNotFoundError);
  });

  it('markOutputsFetched', () => {
    const { id } = store.jobs.insert({ kind: 'image_to_3d', label: 'a', remoteId: 'r', now: 0 });
    expect(store.jobs.markOutputsFetched(id).outputsFetched).toBe(true);
    expect(store.jobs.get(id)?.outputsFetched).toBe(true);
  });
});
