// The download cache against the real engine: outputs land through the tracker hook and open offline,
// links that expire are refreshed, broken downloads never enter the cache, eviction and verification.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open, utimes } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createDownloadHook,
  downloadMissing,
  fetchJobOutputs,
  type OutputsReport,
} from '../../main/cache/auto-download.ts';
import { DownloadCache, type CacheOptions } from '../../main/cache/download-cache.ts';
import { DownloadError } from '../../main/cache/downloader.ts';
import { openDatabase, type Store } from '../../main/store/database.ts';
import { startTestEngine, type TestEngine } from '../engine/helpers.ts';
import { makeHarness, PNG, type Harness } from '../jobs/harness.ts';
import { hostFile, sha256File } from './helpers.ts';

const MiB = 1 << 20;
const FAST_RETRY = { maxAttempts: 3, baseMs: 1, maxMs: 5 };

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function makeCache(store: Store, dir: string, options: Partial<CacheOptions> = {}): DownloadCache {
  const cache = new DownloadCache({ store, dir: join(dir, 'cache'), retry: FAST_RETRY, ...options });
  cleanup.push(() => cache.close());
  return cache;
}

async function harness(options: Parameters<typeof makeHarness>[0] = {}): Promise<Harness> {
  const h = await makeHarness({ speed: 500, ...options });
  cleanup.push(() => h.dispose());
  return h;
}

/** An engine and a database in temp folders, for tests that need no jobs. */
async function engineAndStore(): Promise<{ engine: TestEngine; store: Store; dir: string }> {
  const engine = await startTestEngine();
  const dir = mkdtempSync(join(tmpdir(), 'asset-studio-cache-'));
  const store = openDatabase(join(dir, 'asset-studio.db'));
  cleanup.push(async () => {
    store.close();
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  return { engine, store, dir };
}

function blobFiles(cache: DownloadCache): string[] {
  const root = join(cache.dir, 'blobs');
  try {
    return readdirSync(root).flatMap((d) => readdirSync(join(root, d)));
  } catch {
    return [];
  }
}

describe('download cache', () => {
  it('caches every output of a finished job through the tracker hook, and opens them with the engine closed', async () => {
    const h = await harness();
    const cache = makeCache(h.store, h.dir);
    const reported = new Promise<OutputsReport>((resolve) => {
      h.restartTracker({ onFinished: createDownloadHook(cache, h.store, { onReport: resolve }) });
    });
    const { job } = await h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair' });
    h.tracker.start();
    const report = await reported;
    expect(report.failed).toEqual([]);
    // The OBJ's MTL (named by its mtllib, served beside it) is kept with it (#16 item 2).
    expect(report.fetched.map((f) => f.kind)).toEqual(['glb', 'obj', 'zip', 'fbx', 'usdz', 'obj:mesh.mtl']);
    expect(h.store.jobs.require(job!.id).outputsFetched).toBe(true);

    await h.tracker.stop();
    await h.engine.close(); // offline from here on
    const session = job!.remoteId!;
    const glb = cache.open(session, 'glb')!;
    expect(readFileSync(glb).subarray(0, 4).toString()).toBe('glTF');
    expect(basename(glb)).toBe(sha256File(glb));
    expect(h.store.cache.get({ sessionId: session, kind: 'glb' })).toMatchObject({
      state: 'complete',
      sha256: basename(glb),
      jobId: job!.id,
    });

    // Another process on the same folder finds them too, and a fetch with the old link needs no network.
    const later = makeCache(h.store, h.dir);
    for (const { kind, path } of report.fetched) expect(later.open(session, kind)).toBe(path);
    const stale = (h.store.jobs.require(job!.id).result as { mesh_url_glb: string }).mesh_url_glb;
    expect(await later.fetchOutput({ sessionId: session, kind: 'glb', url: stale })).toBe(glb);
    expect(later.open(session, 'mp4')).toBeUndefined();
  });

  it('after a restart, fetches the outputs of succeeded jobs that are not all cached', async () => {
    const h = await harness();
    const { job } = await h.submitter.submit('createTextToImage', { body: { prompt: 'a lamp' } }, { label: 'lamp' });
    h.tracker.start(); // no hook: the app quit before the downloads
    await h.tracker.waitFor([job!.id], AbortSignal.timeout(20_000));
    const cache = makeCache(h.store, h.dir);
    const [report] = await downloadMissing(cache, h.store, (id) => h.tracker.refresh(id));
    expect(report).toMatchObject({ jobId: job!.id, failed: [], fetched: [{ kind: 'image' }] });
    expect(readFileSync(report!.fetched[0]!.path).subarray(1, 4).toString()).toBe('PNG');
    expect(await downloadMissing(cache, h.store, (id) => h.tracker.refresh(id))).toEqual([]);
  });

  it('shares one download between two requests for the same output', async () => {
    const { engine, store, dir } = await engineAndStore();
    const cache = makeCache(store, dir);
    const file = await hostFile(engine, 'big/shared.glb', 20 * MiB);
    const before = engine.faults.requestCount('files');
    const request = { sessionId: 'SESSION_shared', kind: 'glb', url: file.url() };
    const [a, b] = await Promise.all([cache.fetchOutput(request), cache.fetchOutput({ ...request, url: file.url() })]);
    expect(a).toBe(b);
    expect(engine.faults.requestCount('files') - before).toBe(1);
    expect(basename(a)).toBe(file.sha256);
  });

  it('asks for a fresh link when the signed one expired, once, and says what to do when it cannot', async () => {
    const h = await harness();
    const cache = makeCache(h.store, h.dir);
    const { job } = await h.submitter.submit('createImageTo3d', { body: { image_url: PNG } }, { label: 'chair' });
    h.tracker.start();
    const [done] = await h.tracker.waitFor([job!.id], AbortSignal.timeout(20_000));
    h.engine.expireFileLinks(); // every link of the last read has expired (whatever the machine's speed)
    const stale = (done!.result as { mesh_url_glb: string }).mesh_url_glb;
    await expect(
      cache.fetchOutput({ sessionId: done!.remoteId!, kind: 'glb', url: stale, label: 'chair' }),
    ).rejects.toThrow(
      /the glb output of "chair" \(session SESSION_\w+\).*HTTP 403: the signed link expired.*fresh link/,
    );

    let reads = 0;
    const refresh = () => {
      reads++;
      return h.tracker.refresh(done!.id);
    };
    const before = h.engine.faults.requestCount('files');
    const report = await fetchJobOutputs(cache, h.store, done!, refresh);
    expect(report.failed).toEqual([]);
    expect(report.fetched).toHaveLength(6); // the five outputs and the OBJ's MTL
    expect(reads).toBe(1); // one re-read served the six refused links
    expect(h.engine.faults.requestCount('files') - before).toBe(12); // each: 403, then the fresh link
    expect(h.store.jobs.require(done!.id).outputsFetched).toBe(true);
  });

  it('a link whose address no longer answers (the engine that served it ended) is fetched from the address a fresh read names', async () => {
    const { engine, store, dir } = await engineAndStore();
    const cache = makeCache(store, dir);
    const file = await hostFile(engine, 'big/moved.glb', 64 * 1024);
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const deadPort = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const stale = new URL(file.url());
    stale.port = String(deadPort);
    let reads = 0;
    const path = await cache.fetchOutput({
      sessionId: 'SESSION_moved',
      kind: 'glb',
      url: stale.toString(),
      refreshUrl: async () => {
        reads++;
        return file.url();
      },
    });
    expect(await sha256File(path)).toBe(file.sha256);
    expect(reads).toBe(1);
  });

  it('never caches a truncated body: the download resumes, or fails and keeps the bytes for later', async () => {
    const { engine, store, dir } = await engineAndStore();
    const cache = makeCache(store, dir);
    const file = await hostFile(engine, 'big/cut.glb', 8 * MiB);
    const request = { sessionId: 'SESSION_cut', kind: 'glb', url: file.url() };

    engine.faults.add({ kind: 'truncate', match: { endpoint: 'files' }, times: -1 });
    const error = await cache.fetchOutput(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).message).toMatch(/after 3 attempts.*MiB are kept and the next try resumes/);
    expect(blobFiles(cache)).toEqual([]);
    expect(cache.open('SESSION_cut', 'glb')).toBeUndefined();
    const failed = store.cache.get(request)!;
    expect(failed.state).toBe('failed');
    expect(failed.bytesDone).toBeGreaterThan(0);

    engine.faults.clear();
    engine.faults.add({ kind: 'truncate', match: { endpoint: 'files' } }); // one more cut, then whole answers
    const path = await cache.fetchOutput(request);
    expect(sha256File(path)).toBe(file.sha256);
    expect(basename(path)).toBe(file.sha256);
  });

  it('rejects a file that changed under the same ETag, after verify found the cached copy damaged', async () => {
    const { engine, store, dir } = await engineAndStore();
    const cache = makeCache(store, dir);
    const file = await hostFile(engine, 'big/same-etag.glb', 2 * MiB);
    const mtime = Math.floor(Date.now() / 1000) - 60; // whole seconds: restored exactly after the change
    await utimes(file.path, mtime, mtime);
    const request = { sessionId: 'SESSION_etag', kind: 'glb', url: file.url() };
    const blob = await cache.fetchOutput(request);

    // The cached copy is damaged on disk: verify deletes it and the entry becomes failed.
    const damaged = await open(blob, 'r+');
    await damaged.write(Buffer.from('damage'), 0, 6, 1000);
    await damaged.close();
    const report = await cache.verify();
    expect(report.checked).toBe(1);
    expect(report.bad.map((e) => [e.kind, e.state])).toEqual([['glb', 'failed']]);
    expect(report.bad[0]!.error).toMatch(/bytes changed on disk.*downloaded again when next needed/);
    expect(blobFiles(cache)).toEqual([]);
    expect(cache.open('SESSION_etag', 'glb')).toBeUndefined();

    // The engine's file changes in place, keeping size, inode and mtime, so its ETag stays the same.
    const etagBefore = (await fetch(file.url(), { method: 'HEAD' })).headers.get('etag');
    const altered = await open(file.path, 'r+');
    await altered.write(Buffer.from('altered'), 0, 7, 5000);
    await altered.close();
    await utimes(file.path, mtime, mtime);
    expect((await fetch(file.url(), { method: 'HEAD' })).headers.get('etag')).toBe(etagBefore);

    const error = await cache.fetchOutput(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'integrity' });
    expect((error as Error).message).toMatch(/do not match the copy verified earlier under the same ETag/);
    expect(blobFiles(cache)).toEqual([]);
    expect(store.cache.get(request)).toMatchObject({ state: 'failed', bytesDone: 0 });
    expect(readdirSync(join(cache.dir, 'tmp'))).toEqual([]);
  });

  it('evicts the least recently used blobs over the cap, never pinned ones nor those in use', async () => {
    const { engine, store, dir } = await engineAndStore();
    let clock = 1_000;
    const inUse = new Set<string>();
    const cache = makeCache(store, dir, { maxBytes: 2.5 * MiB, inUse: () => inUse, now: () => (clock += 1000) });
    const fetchOne = async (name: string) => {
      const file = await hostFile(engine, `lru/${name}.glb`, MiB);
      return cache.fetchOutput({ sessionId: `SESSION_${name}`, kind: 'glb', url: file.url() });
    };
    await fetchOne('a');
    cache.pin('SESSION_a');
    await fetchOne('b');
    await fetchOne('c');
    inUse.add('SESSION_c');
    await fetchOne('d'); // 4 MiB > 2.5 MiB: the oldest that may go is b (a is pinned)
    const sessions = () =>
      cache
        .list()
        .map((e) => e.sessionId)
        .sort();
    expect(sessions()).toEqual(['SESSION_a', 'SESSION_c', 'SESSION_d']);
    expect(cache.open('SESSION_b', 'glb')).toBeUndefined();
    expect(cache.usage()).toMatchObject({
      bytes: 3 * MiB,
      blobs: 3,
      entries: 3,
      pinnedBytes: MiB,
      maxBytes: 2.5 * MiB,
    });

    inUse.add('SESSION_d');
    expect(await cache.gc()).toMatchObject({ evicted: [], freedBytes: 0 }); // still over the cap, but nothing may go
    cache.unpin('SESSION_a');
    inUse.clear();
    const report = await cache.gc();
    expect(report.evicted.map((e) => e.sessionId)).toEqual(['SESSION_a']);
    expect(report.freedBytes).toBe(MiB);
    expect(sessions()).toEqual(['SESSION_c', 'SESSION_d']);
    expect(blobFiles(cache)).toHaveLength(2);
  });

  it('keeps one blob for outputs with the same bytes, and sweeps files nothing refers to', async () => {
    const { engine, store, dir } = await engineAndStore();
    let clock = Date.now();
    const cache = makeCache(store, dir, { now: () => clock });
    const file = await hostFile(engine, 'dup/mesh.glb', MiB);
    const a = await cache.fetchOutput({ sessionId: 'SESSION_dup', kind: 'glb', url: file.url() });
    const b = await cache.fetchOutput({ sessionId: 'SESSION_dup', kind: 'animation', url: file.url() });
    expect(b).toBe(a);
    expect(cache.usage()).toMatchObject({ bytes: MiB, blobs: 1, entries: 2 });

    const orphan = join(cache.dir, 'blobs', 'ff', 'f'.repeat(64));
    const leftover = join(cache.dir, 'tmp', `cache_${'0'.repeat(20)}.part`); // an entry id no row has
    for (const path of [orphan, leftover]) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, 'left by a crash');
    }
    expect((await cache.gc()).orphans).toBe(0); // too young: may belong to a download under way
    clock += 11 * 60_000;
    expect((await cache.gc()).orphans).toBe(2);
    expect(blobFiles(cache)).toEqual([basename(a)]);
  });
});
