// Moving the cache folder (Settings): the cached files move with it, so every output shown complete is still
// readable, served by the web host, and `cache verify` drops nothing; a move that fails half-way leaves the old
// folder in use with an error that says so (issue #26, item 12).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_MARKER } from '../../main/cache/folder.ts';
import type { RunningWebHost } from '../../main/host/web-host.ts';
import type { CacheEntry } from '../../main/store/cache-entries.ts';
import { withCacheCapability } from '../../main/host/token.ts';
import { runCli, cleanEnv } from '../cli/run-cli.ts';
import { callCommand, raw, tempDir } from './helpers.ts';
import { startTestHost } from './web-host-client.ts';

const CHAIR = new URL('../../../shared/fixtures/real/images/chair.png', import.meta.url).pathname;
const data = tempDir('cache-move');
const dataDir = join(data.path, 'data');
let host: RunningWebHost;

async function createAndFinish(label: string): Promise<void> {
  const { job } = (await host.bridge.call('create', {
    endpoint: 'createImageTo3d',
    body: { image_url: `data:image/png;base64,${readFileSync(CHAIR).toString('base64')}` },
    label,
  })) as { job: { id: string } };
  for (const end = Date.now() + 60_000; ; ) {
    const { jobs } = (await host.bridge.call('jobs.list', {})) as {
      jobs: { id: string; state: string; final: boolean; outputsFetched: boolean }[];
    };
    const now = jobs.find((j) => j.id === job.id);
    if (now?.final && now.outputsFetched) return;
    if (now?.final && now.state !== 'succeeded') throw new Error(`the job failed: ${JSON.stringify(now)}`);
    if (Date.now() > end) throw new Error(`the job did not finish: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  host = await startTestHost(dataDir);
  await createAndFinish('chair');
}, 90_000);

afterAll(async () => {
  await host.close();
  data.remove();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function complete(): CacheEntry[] {
  return host.bridge.services.cache.list().filter((e) => e.state === 'complete');
}

function updateCacheDir(dir: string) {
  return callCommand(host, 'settings.update', { cache: { dir } });
}

/** Every complete entry: its bytes read through the cache (their SHA-256 as recorded), and served by the host. */
async function expectAllReadable(entries: CacheEntry[]): Promise<void> {
  for (const e of entries) {
    const path = host.bridge.services.cache.open(e.sessionId, e.kind);
    expect(path, `${e.kind} readable`).toBeDefined();
    expect(path!.startsWith(host.bridge.services.cache.dir)).toBe(true);
    expect(sha256(readFileSync(path!))).toBe(e.sha256);
    const served = await raw(host.port, {
      path: withCacheCapability(`/cache/${e.sessionId}/${encodeURIComponent(e.kind)}`, host.token),
      headers: { host: `127.0.0.1:${host.port}` },
    });
    expect(served.status, `${e.kind} served`).toBe(200);
  }
}

describe('moving the cache folder', () => {
  it('moves the files: every entry shown complete is still readable and served, and cache verify drops nothing', async () => {
    const all = complete();
    expect(all.length).toBeGreaterThanOrEqual(4);
    const old = host.bridge.services.cache.dir;
    // One file was lost from the old folder before the move (deleted by hand): its entry is not shown complete.
    const lost = all.find((e) => all.filter((o) => o.blobPath === e.blobPath).length === 1)!;
    rmSync(join(old, lost.blobPath!));
    const before = all.filter((e) => e.id !== lost.id);
    const target = join(data.path, 'new-cache');
    const answer = await updateCacheDir(target);
    expect(answer.status, answer.body).toBe(200);
    expect(host.bridge.services.cache.dir).toBe(target);
    const after = complete();
    expect(after.map((e) => e.id).sort()).toEqual(before.map((e) => e.id).sort());
    await expectAllReadable(after);
    const lostNow = host.bridge.services.cache.list().find((e) => e.id === lost.id);
    expect(lostNow).toMatchObject({ state: 'failed', error: expect.stringContaining('downloaded again') });
    // The old folder's copies are gone (its marker stays); the new one holds them.
    expect(readdirSync(old)).toEqual([CACHE_MARKER]);
    const verify = await runCli(['cache', 'verify', '--json'], cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }));
    expect(verify.code, verify.stderr).toBe(0);
    const report = JSON.parse(verify.stdout) as { checked: number; bad: unknown[] };
    expect(report.bad).toEqual([]);
    expect(report.checked).toBeGreaterThan(0);
    // The services were rebuilt on the new folder (and the engine the old ones ran closed): jobs still run, and
    // their outputs land in the new folder.
    await createAndFinish('after the move');
    for (const e of complete()) expect(existsSync(join(target, e.blobPath!)), e.kind).toBe(true);
  });

  it('a move that fails half-way leaves the old folder in use, every file in it, with an error that says so', async () => {
    const old = host.bridge.services.cache.dir;
    const before = complete();
    // A folder this cache used before (its marker), where the last blob's place is taken by a file: the copies
    // before it succeed, that one fails.
    const target = join(data.path, 'blocked-cache');
    mkdirSync(join(target, 'blobs'), { recursive: true });
    writeFileSync(join(target, CACHE_MARKER), readFileSync(join(old, CACHE_MARKER)));
    const paths = [...new Set(before.map((e) => e.blobPath!))].sort();
    const lastFolder = paths.at(-1)!.split('/')[1]!;
    expect(paths.some((p) => p.split('/')[1] !== lastFolder)).toBe(true); // some are copied before it
    writeFileSync(join(target, 'blobs', lastFolder), 'in the way');

    const answer = await updateCacheDir(target);
    expect(answer.status).toBe(400);
    const message = (JSON.parse(answer.body) as { issues: { path: string; message: string }[] }).issues[0]!;
    expect(message.path).toBe('cache.dir');
    expect(message.message).toContain(`The cache could not be moved to ${target}`);
    expect(message.message).toContain(`the cache stays in ${old}`);
    expect(host.bridge.services.cache.dir).toBe(old);
    await expectAllReadable(complete());
    expect(
      complete()
        .map((e) => e.id)
        .sort(),
    ).toEqual(before.map((e) => e.id).sort());
    // The copies it made were removed.
    const copiedBlobs = readdirSync(join(target, 'blobs')).filter((n) => n !== lastFolder);
    for (const folder of copiedBlobs) expect(readdirSync(join(target, 'blobs', folder))).toEqual([]);
    expect(existsSync(join(target, 'tmp')) ? readdirSync(join(target, 'tmp')) : []).toEqual([]);
  });
});
