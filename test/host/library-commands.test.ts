// The library's bridge commands over the embedded engine: jobs.thumbnail (a render of the cached model,
// kept; the text-to-image's own image), jobs.rename, jobs.delete (records and cached files; the service
// keeps its copy), and jobs.list's grouping, filters and orders.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../shared/bridge/contract.ts';
import { cachePath } from '../../shared/bridge/web-protocol.ts';
import { keepLocalOutput } from '../../main/cache/local-output.ts';
import type { BridgeService } from '../../main/host/bridge-service.ts';
import { BridgeFailure } from '../../main/host/errors.ts';
import { realFixture } from '../fixtures.ts';
import { openTestBridge } from './bridge.ts';
import { tempDir, until } from './helpers.ts';

const data = tempDir('library');
let bridge: BridgeService;

beforeAll(async () => {
  bridge = await openTestBridge(data.path);
});

afterAll(async () => {
  await bridge.close();
  data.remove();
});

const list = async (input: object) => COMMANDS['jobs.list'].output.parse(await bridge.call('jobs.list', input));
const thumbnail = async (id: string) =>
  COMMANDS['jobs.thumbnail'].output.parse(await bridge.call('jobs.thumbnail', { id }));

/** The URL of a session's picture: its cache path with the version of its bytes. */
function thumbUrl(sessionId: string, kind = 'thumbnail'): string {
  const entry = bridge.services.store.cache.get({ sessionId, kind })!;
  return `${cachePath(sessionId, kind)}?v=${entry.sha256!.slice(0, 12)}`;
}

/** Creates through the bridge and waits until the job's outputs are all cached. */
async function finished(endpoint: string, body: object): Promise<{ id: string; remoteId: string }> {
  const created = (await bridge.call('create', { endpoint, body })) as { job: { id: string } };
  const id = created.job.id;
  const job = await until(
    () => {
      const j = bridge.services.store.jobs.get(id);
      return j?.outputsFetched ? j : undefined;
    },
    120_000,
    `${endpoint} to finish with its outputs cached`,
  );
  return { id, remoteId: job.remoteId! };
}

/** The PNG's distinct colours (a uniform picture has one). */
function colours(bytes: Buffer): number {
  const png = PNG.sync.read(bytes);
  const seen = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) seen.add(png.data.readUInt32BE(i));
  return seen.size;
}

describe('the library commands', () => {
  let model: { id: string; remoteId: string };
  let picture: { id: string; remoteId: string };

  beforeAll(async () => {
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
    [model, picture] = await Promise.all([
      finished('createImageTo3d', { image_url: image }),
      finished('createTextToImage', { prompt: 'a red barrel' }),
    ]);
  }, 180_000);

  it('renders a finished model once into the cache beside its outputs, and shows a text-to-image its own image', async () => {
    const before = await list({ group: true });
    expect(before.jobs.find((j) => j.id === model.id)!.thumbnail).toBeNull(); // nothing rendered yet
    expect(before.jobs.find((j) => j.id === picture.id)!.thumbnail).toBe(thumbUrl(picture.remoteId, 'image'));

    const answer = await thumbnail(model.id);
    expect(answer).toEqual({ url: thumbUrl(model.remoteId), reason: null });
    const entry = bridge.services.store.cache.get({ sessionId: model.remoteId, kind: 'thumbnail' })!;
    expect(entry).toMatchObject({ state: 'complete', jobId: model.id, urlKey: 'local:thumbnail?from=glb' });
    const path = join(bridge.services.cache.dir, entry.blobPath!);
    const png = readFileSync(path);
    expect(PNG.sync.read(png)).toMatchObject({ width: 192, height: 192 });
    expect(colours(png)).toBeGreaterThan(50); // a shaded model on a gradient, not a tile

    // Kept: listed at once, and asked again it is not rendered again (the same entry, the same blob).
    expect((await list({ group: true })).jobs.find((j) => j.id === model.id)!.thumbnail).toBe(thumbUrl(model.remoteId));
    expect(await thumbnail(model.id)).toEqual(answer);
    expect(bridge.services.store.cache.get({ sessionId: model.remoteId, kind: 'thumbnail' })).toMatchObject({
      id: entry.id,
      createdAt: entry.createdAt,
      blobPath: entry.blobPath,
    });
    expect(await thumbnail(picture.id)).toEqual({ url: thumbUrl(picture.remoteId, 'image'), reason: null });
  });

  it('draws again when a better model joins the session (the older flow: preview, then the refined mesh)', async () => {
    const { cache, store } = bridge.services;
    const glb = readFileSync(cache.open(model.remoteId, 'glb')!);
    await keepLocalOutput(cache, store, {
      sessionId: model.remoteId,
      jobId: model.id,
      kind: 'polished_glb',
      bytes: glb,
    });
    // The render of the GLB is out of date: not listed, and asked for it is drawn from the refined mesh.
    expect((await list({ group: true })).jobs.find((j) => j.id === model.id)!.thumbnail).toBeNull();
    expect(await thumbnail(model.id)).toEqual({ url: thumbUrl(model.remoteId), reason: null });
    expect(store.cache.get({ sessionId: model.remoteId, kind: 'thumbnail' })).toMatchObject({
      state: 'complete',
      urlKey: 'local:thumbnail?from=polished_glb',
    });
    expect((await list({ group: true })).jobs.find((j) => j.id === model.id)!.thumbnail).toBe(thumbUrl(model.remoteId));
  });

  it('renames: the list and search show the new name; blank goes back to the label', async () => {
    const renamed = COMMANDS['jobs.rename'].output.parse(
      await bridge.call('jobs.rename', { id: picture.id, name: '  Hero   barrel ' }),
    );
    expect(renamed).toMatchObject({ name: 'Hero barrel', label: 'a red barrel' });
    expect((await list({ search: 'hero', group: true })).jobs.map((j) => j.id)).toEqual([picture.id]);
    const names = (await list({ sort: 'name', group: true })).jobs.map((j) => j.name!);
    expect(names).toContain('Hero barrel');
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const back = COMMANDS['jobs.rename'].output.parse(await bridge.call('jobs.rename', { id: picture.id, name: '' }));
    expect(back.name).toBe('a red barrel');
    await bridge.call('jobs.rename', { id: picture.id, name: 'Hero barrel' });
  });

  it('filters by state, kind and date', async () => {
    expect((await list({ state: 'succeeded', kinds: ['text_to_image'] })).jobs.map((j) => j.id)).toEqual([picture.id]);
    expect((await list({ state: 'failed' })).total).toBe(0);
    expect((await list({ since: Date.now() + 60_000 })).total).toBe(0);
  });

  it('lists an older-flow session as one entry with its steps inside', async () => {
    const store = bridge.services.store;
    const done = { state: 'succeeded' as const, rawStatus: 'completed', final: true, nextPollAt: null };
    const first = store.jobs.insert({
      kind: 'image_to_3d_older',
      label: 'robot.png (step by step)',
      remoteId: 'SESSION_older1',
      step: 'spin',
      ...done,
      now: 1000,
    });
    store.jobs.insert({
      kind: 'image_to_3d_older',
      label: 'SESSION_older1 preview',
      remoteId: 'SESSION_older1',
      step: 'preview',
      ...done,
      now: 2000,
    });
    store.jobs.insert({
      kind: 'image_to_3d_older',
      label: 'SESSION_older1 refine',
      remoteId: 'SESSION_older1',
      step: 'refine',
      ...done,
      now: 3000,
    });
    const found = await list({ search: 'SESSION_older1', group: true });
    expect(found.total).toBe(1);
    expect(found.jobs[0]).toMatchObject({ id: first.id, name: 'robot.png (step by step)' });
    expect(found.jobs[0]!.steps!.map((s) => s.step)).toEqual(['spin', 'preview', 'refine']);
    expect((await list({ search: 'SESSION_older1' })).total).toBe(3); // ungrouped (the queue, the CLI): one row per step

    // Deleting the entry deletes every step.
    const outcome = COMMANDS['jobs.delete'].output.parse(await bridge.call('jobs.delete', { ids: [first.id] }));
    expect(outcome.deleted).toHaveLength(3);
    expect((await list({ search: 'SESSION_older1' })).total).toBe(0);
  });

  it('deletes records and cached files, says the service keeps its copy, and refuses a running job', async () => {
    const cache = bridge.services.cache;
    const blobs = bridge.services.store.cache
      .list()
      .filter((e) => e.sessionId === model.remoteId && e.blobPath !== null)
      .map((e) => join(cache.dir, e.blobPath!));
    expect(blobs.length).toBeGreaterThan(1);
    expect(blobs.every((b) => existsSync(b))).toBe(true);

    const outcome = COMMANDS['jobs.delete'].output.parse(await bridge.call('jobs.delete', { ids: [model.id] }));
    expect(outcome.deleted).toEqual([model.id]);
    expect(outcome.files).toBeGreaterThan(0);
    expect(outcome.note).toMatch(/service's copy is not deleted/);
    expect(bridge.services.store.jobs.get(model.id)).toBeUndefined();
    expect(bridge.services.store.cache.list().filter((e) => e.sessionId === model.remoteId)).toEqual([]);
    expect(blobs.filter((b) => existsSync(b))).toEqual([]);
    // The service still has the session.
    const remote = await bridge.services.client.getImageTo3d(model.remoteId);
    expect(remote.session_code ?? remote).toBeTruthy();

    const running = bridge.services.store.jobs.insert({
      kind: 'text_to_image',
      label: 'still going',
      remoteId: 'SESSION_running',
      state: 'running',
      rawStatus: 'processing',
      nextPollAt: null,
      now: Date.now(),
    });
    const error = await bridge.call('jobs.delete', { ids: [running.id, picture.id] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BridgeFailure);
    expect((error as BridgeFailure).error).toMatchObject({ code: 'conflict' });
    expect((error as BridgeFailure).error.message).toMatch(/"still going" is still running: cancel it first/);
    expect(bridge.services.store.jobs.get(picture.id)).toBeDefined(); // nothing deleted
  });
});
