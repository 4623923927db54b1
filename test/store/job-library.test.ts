// The library's view of the jobs table: names (migration 3), rename, delete, one entry per older-flow
// session and per animated character, and the filters and orders of jobs.list.
import { beforeEach, describe, expect, it } from 'vitest';
import { entryRows } from '../../main/app/library-actions.ts';
import { openDatabase, type Store } from '../../main/store/database.ts';
import { RecordNotFoundError } from '../../main/store/errors.ts';
import type { NewJob } from '../../main/store/jobs.ts';
import { olderDatabase } from './older-database.ts';

describe('migration 3: job names', () => {
  it('brings a version-2 database to version 3: its jobs keep their rows and have no name yet', () => {
    const path = olderDatabase(
      2,
      `INSERT INTO jobs (id, kind, label, state, raw_status, final, created_at, updated_at, last_change_at)
       VALUES ('job_old', 'text_to_image', 'red barrel', 'succeeded', 'completed', 1, 5, 5, 5)`,
    );

    const store = openDatabase(path);
    try {
      expect(store.jobs.require('job_old')).toMatchObject({
        label: 'red barrel',
        name: null,
        state: 'succeeded',
        createdAt: 5,
      });
      expect(store.jobs.rename('job_old', 'Barrel, red', 9)).toMatchObject({
        name: 'Barrel, red',
        label: 'red barrel',
        updatedAt: 9,
      });
    } finally {
      store.close();
    }
    const again = openDatabase(path);
    expect(again.jobs.require('job_old').name).toBe('Barrel, red');
    again.close();
  });

  it('refuses an empty name in the column itself', () => {
    const store = openDatabase(':memory:');
    const job = store.jobs.insert({ kind: 'style', label: 'style', remoteId: 'st', now: 1 });
    expect(() => store.jobs.rename(job.id, '', 2)).toThrow(/CHECK constraint/);
    store.close();
  });
});

describe('the library entries', () => {
  let store: Store;
  beforeEach(() => {
    store = openDatabase(':memory:');
    return () => store.close();
  });

  const done = { state: 'succeeded' as const, rawStatus: 'completed', final: true, nextPollAt: null };
  /** A final job of the session `remoteId`, inserted at `now`: succeeded, unless `more` says otherwise. */
  const finished = (kind: NewJob['kind'], label: string, remoteId: string, now: number, more: Partial<NewJob> = {}) =>
    store.jobs.insert({ kind, label, remoteId, ...done, ...more, now });
  /** A finished image-to-3D job beside the entry a test groups. */
  const finishedChair = () => finished('image_to_3d', 'chair.png', 'SESSION_c', 15);

  it('renames (search finds the new name and the label) and renames back to the label with null', () => {
    const job = finished('text_to_image', 'a red barrel', 't1', 1);
    store.jobs.rename(job.id, 'Hero barrel', 2);
    expect(store.jobs.list({ search: 'hero' }).map((j) => j.id)).toEqual([job.id]);
    expect(store.jobs.list({ search: 'red barrel' }).map((j) => j.id)).toEqual([job.id]);
    expect(store.jobs.rename(job.id, null, 3).name).toBeNull();
    expect(store.jobs.count({ search: 'hero' })).toBe(0);
    expect(() => store.jobs.rename('job_missing', 'x', 4)).toThrow(RecordNotFoundError);
  });

  it('deletes a row and unlinks the cache entries that named it', () => {
    const job = finished('text_to_image', 'barrel', 't1', 1);
    const entry = store.cache.upsert({
      sessionId: 't1',
      jobId: job.id,
      kind: 'image',
      urlKey: 'http://x/image.png',
      now: 1,
    });
    expect(store.jobs.delete(job.id).id).toBe(job.id);
    expect(store.jobs.get(job.id)).toBeUndefined();
    expect(store.cache.get({ sessionId: 't1', kind: 'image' })).toMatchObject({ id: entry.id, jobId: null });
    expect(() => store.jobs.delete(job.id)).toThrow(RecordNotFoundError);
  });

  it('grouped, an older-flow session is one entry (its first row) whose state is its newest step; search finds it once', () => {
    const first = finished('image_to_3d_older', 'robot.png (step by step)', 'SESSION_r', 10, { step: 'spin' });
    finished('image_to_3d_older', 'SESSION_r preview', 'SESSION_r', 20, { step: 'preview' });
    const refine = store.jobs.insert({
      kind: 'image_to_3d_older',
      label: 'SESSION_r refine',
      remoteId: 'SESSION_r',
      step: 'refine',
      state: 'running',
      rawStatus: 'refining',
      now: 30,
    });
    const other = finishedChair();

    expect(store.jobs.list().length).toBe(4);
    expect(store.jobs.list({ group: true }).map((j) => j.id)).toEqual([other.id, first.id]);
    expect(store.jobs.count({ group: true })).toBe(2);
    // Any step's label finds the entry, once.
    expect(store.jobs.list({ group: true, search: 'refine' }).map((j) => j.id)).toEqual([first.id]);
    expect(store.jobs.list({ group: true, search: 'robot' }).map((j) => j.id)).toEqual([first.id]);
    // Its state is the refine's (running), not the first step's (succeeded).
    expect(store.jobs.list({ group: true, final: false }).map((j) => j.id)).toEqual([first.id]);
    expect(store.jobs.list({ group: true, states: ['succeeded'] }).map((j) => j.id)).toEqual([other.id]);
    expect(store.jobs.sessionSteps('SESSION_r').map((j) => j.step)).toEqual(['spin', 'preview', 'refine']);
    expect(store.jobs.sessionSteps('SESSION_r').at(-1)!.id).toBe(refine.id);
  });

  it('grouped, an animated character is one entry: its upload, with the text-animation jobs asked of it', () => {
    const upload = finished('animation_session', 'Male_Casual.fbx', 'SESSION_m', 10);
    const prompts = store.jobs.insert({
      kind: 'animation_prompt',
      label: 'Male_Casual.fbx: walk forward, wave',
      remoteId: 'SESSION_m',
      texts: ['walk forward', 'wave'],
      state: 'running',
      rawStatus: 'processing',
      now: 20,
    });
    const other = finishedChair();
    // A session's prompts asked here of an upload made elsewhere: their own entry (nothing to join).
    const alone = finished('animation_prompt', 'SESSION_x: jump', 'SESSION_x', 30);

    expect(store.jobs.list().length).toBe(4);
    expect(store.jobs.list({ group: true }).map((j) => j.id)).toEqual([alone.id, other.id, upload.id]);
    expect(store.jobs.count({ group: true })).toBe(3);
    // The prompts find the character's entry, once; so does the kind of either of its rows.
    expect(store.jobs.list({ group: true, search: 'walk forward' }).map((j) => j.id)).toEqual([upload.id]);
    expect(store.jobs.list({ group: true, kinds: ['animation_prompt'] }).map((j) => j.id)).toEqual([
      alone.id,
      upload.id,
    ]);
    // Its state is its newest job's (the prompts are running).
    expect(store.jobs.list({ group: true, final: false }).map((j) => j.id)).toEqual([upload.id]);
    expect(store.jobs.animationRows('SESSION_m').map((j) => j.id)).toEqual([upload.id, prompts.id]);
    // Listed, opened and deleted as one (main/app/library-actions.ts).
    expect(entryRows(store, upload).map((j) => j.id)).toEqual([upload.id, prompts.id]);
    expect(entryRows(store, prompts).map((j) => j.id)).toEqual([upload.id, prompts.id]);
    expect(entryRows(store, other).map((j) => j.id)).toEqual([other.id]);
  });

  it('filters by kind, state and date, and sorts by date, name, kind and state', () => {
    const a = finished('text_to_image', 'banana', 'a', 100);
    const b = finished('image_to_3d', 'Apple', 'b', 200, { state: 'failed', rawStatus: 'failed' });
    const c = store.jobs.insert({ kind: 'image_to_3d', label: 'cherry', remoteId: 'c', now: 300 });
    store.jobs.rename(a.id, 'Zucchini', 400);
    const ids = (page: Parameters<Store['jobs']['list']>[0]) =>
      store.jobs.list({ group: true, ...page }).map((j) => j.id);

    expect(ids({})).toEqual([c.id, b.id, a.id]);
    expect(ids({ sort: 'oldest' })).toEqual([a.id, b.id, c.id]);
    expect(ids({ sort: 'name' })).toEqual([b.id, c.id, a.id]); // Apple, cherry, Zucchini (the name, not the label)
    expect(ids({ sort: 'kind' })).toEqual([c.id, b.id, a.id]); // image_to_3d (newest first), text_to_image
    expect(ids({ sort: 'state' })).toEqual([b.id, c.id, a.id]); // failed, queued, succeeded
    expect(ids({ kinds: ['image_to_3d'] })).toEqual([c.id, b.id]);
    expect(ids({ states: ['failed'] })).toEqual([b.id]);
    expect(ids({ since: 200 })).toEqual([c.id, b.id]);
    expect(ids({ until: 200 })).toEqual([a.id]);
    expect(store.jobs.count({ group: true, since: 150, until: 301 })).toBe(2);
    expect(ids({ sort: 'name', limit: 1, offset: 1 })).toEqual([c.id]);
  });
});
