// The web host serving the files inside a cached zip of a real image-to-3D job (its OBJ, MTL and texture
// at /cache/<session>/zip/<entry>), cache.entries listing them, and jobs.original finding the image-to-3D
// job whose GLB a retopology job was made from (by URL without its signature query, or by ASSET_ id).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../shared/bridge/contract.ts';
import { cacheEntryPath } from '../../shared/bridge/web-protocol.ts';
import { withCacheCapability } from '../../main/host/token.ts';
import { NOT_CACHED } from '../../main/cache/original.ts';
import { startWebHost, type RunningWebHost } from '../../main/host/web-host.ts';
import { realFixture } from '../fixtures.ts';
import { raw, tempDir } from './helpers.ts';

const data = tempDir('web-host-zip');
let host: RunningWebHost;
let headers: Record<string, string>;
let imageJob: { id: string; remoteId: string; label: string; result: Record<string, unknown> };

beforeAll(async () => {
  host = await startWebHost({
    dataDir: join(data.path, 'data'),
    rendererDir: join(data.path, 'none'),
    serviceOptions: { engineSpeed: 500 },
  });
  headers = { host: `127.0.0.1:${host.port}`, authorization: `Bearer ${host.token}` };
});

afterAll(async () => {
  await host.close();
  data.remove();
});

async function call<C extends keyof typeof COMMANDS>(command: C, input: unknown): Promise<any> {
  const res = await raw(host.port, {
    method: 'POST',
    path: `/api/call/${command}`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = JSON.parse(res.body);
  if (res.status !== 200) throw Object.assign(new Error(body.message), { status: res.status, body });
  return COMMANDS[command].output.parse(body);
}

async function waitFor<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cached = (sessionId: string, kind: string) =>
  waitFor(
    async () =>
      ((await call('cache.outputs', { sessionId })).outputs as { kind: string; state: string }[]).find(
        (o) => o.kind === kind && o.state === 'complete',
      ),
    `the ${kind} output`,
  );

const succeeded = (id: string) =>
  waitFor(
    async () => {
      const job = await call('jobs.get', { id });
      if (job.state === 'failed') throw new Error(`job failed: ${job.error}`);
      return job.state === 'succeeded' ? job : undefined;
    },
    'the job to succeed',
    60_000,
  );

describe('files inside a cached zip', () => {
  it('has an image-to-3D job with its zip and GLB cached', async () => {
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
    // Textured (texture_model none has no texture in its zip).
    const created = await call('create', {
      endpoint: 'createImageTo3d',
      body: { image_url: image, texture_model: 'baked' },
    });
    imageJob = await succeeded(created.job.id);
    await cached(imageJob.remoteId, 'zip');
    await cached(imageJob.remoteId, 'glb');
  }, 90_000);

  it("lists the zip's files with a URL each (cache.entries)", async () => {
    const { entries } = await call('cache.entries', { sessionId: imageJob.remoteId, kind: 'zip' });
    // The engine's zip holds a folder named by the session code, as the service's does.
    const folder = imageJob.remoteId;
    expect(entries.map((e: { name: string }) => e.name)).toEqual([
      `${folder}/mesh.obj`,
      `${folder}/mesh.mtl`,
      `${folder}/mesh.png`,
    ]);
    expect(entries[0].url).toBe(
      withCacheCapability(cacheEntryPath(imageJob.remoteId, 'zip', `${folder}/mesh.obj`), host.token),
    );
    const notZip = await call('cache.entries', { sessionId: imageJob.remoteId, kind: 'glb' }).catch(
      (e: { status: number; body: unknown }) => e,
    );
    expect(notZip).toMatchObject({ status: 409, body: { code: 'conflict' } });
    const missing = await call('cache.entries', { sessionId: 'SESSION_nope', kind: 'zip' }).catch(
      (e: { status: number; body: { message: string } }) => e,
    );
    expect(missing).toMatchObject({ status: 404, body: { code: 'not-found' } });
  });

  it('serves the OBJ, its MTL and its texture from inside the zip, typed by extension', async () => {
    const get = (entry: string) =>
      raw(host.port, { path: cacheEntryPath(imageJob.remoteId, 'zip', `${imageJob.remoteId}/${entry}`), headers });
    const obj = await get('mesh.obj');
    expect(obj.status).toBe(200);
    expect(obj.headers['content-type']).toBe('model/obj'); // the one table of types (main/serve), as the engine sends an OBJ
    expect(obj.body).toMatch(/^# .*\nmtllib mesh\.mtl\n/);
    expect(Number(obj.headers['content-length'])).toBe(Buffer.byteLength(obj.body));
    const mtl = await get('mesh.mtl');
    expect(mtl.body).toContain('map_Kd mesh.png');
    const png = await get('mesh.png');
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['x-content-type-options']).toBe('nosniff');
    // Without the token: refused like every other route.
    expect(
      (
        await raw(host.port, {
          path: cacheEntryPath(imageJob.remoteId, 'zip', `${imageJob.remoteId}/mesh.obj`),
          headers: { host: headers.host! },
        })
      ).status,
    ).toBe(401);
  });

  it('answers 404 with the reason for traversal, absolute, missing entries and uncached zips', async () => {
    const base = `/cache/${imageJob.remoteId}/zip`;
    const cases: [string, RegExp][] = [
      [`${base}/..%2F..%2Fasset-studio.db`, /goes up a folder/],
      [`${base}/%2Fetc%2Fpasswd`, /absolute path/],
      [
        `${base}/model.jpg`,
        /has no file "model\.jpg" \(it holds SESSION_\w+\/mesh\.obj, SESSION_\w+\/mesh\.mtl, SESSION_\w+\/mesh\.png\)/,
      ],
      [`/cache/SESSION_nope/zip/model.obj`, /not in the cache/],
    ];
    for (const [path, message] of cases) {
      const res = await raw(host.port, { path, headers });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatch(message);
    }
  });
});

describe('the original of a retopology job (jobs.original)', () => {
  let retopo: { id: string; remoteId: string; result: { input: { mesh: { _id: string } } } };

  it('finds the image-to-3D job whose GLB (signed URL) a retopology job was made from', async () => {
    const glbUrl = String(imageJob.result.mesh_url_glb || imageJob.result.mesh_url);
    expect(glbUrl).toMatch(/^https?:\/\//);
    const created = await call('create', {
      endpoint: 'createRetopology',
      body: { type: 'retopology', input: { mesh: glbUrl, model: 'swift', quads: true } },
    });
    retopo = await succeeded(created.job.id);
    await cached(retopo.remoteId, 'retopo_obj');
    const found = await call('jobs.original', { id: retopo.id });
    expect(found).toEqual({
      mesh: glbUrl.split('?')[0],
      original: { jobId: imageJob.id, sessionId: imageJob.remoteId, kind: 'glb', label: imageJob.label },
      kind: 'retopo_obj',
      reason: null,
    });
  }, 90_000);

  it('follows an ASSET_ id to the URL of the session that created the asset', async () => {
    const assetId = retopo.result.input.mesh._id;
    expect(assetId).toMatch(/^ASSET_/);
    const created = await call('create', {
      endpoint: 'createRetopology',
      body: { type: 'retopology', input: { mesh: assetId, model: 'swift' } },
    });
    const again = await succeeded(created.job.id);
    const found = await call('jobs.original', { id: again.id });
    expect(found.original).toMatchObject({ jobId: imageJob.id, kind: 'glb' });
  }, 90_000);

  it('says in words when the original mesh is not in the local cache', async () => {
    const created = await call('create', {
      endpoint: 'createRetopology',
      body: {
        type: 'retopology',
        input: { mesh: 'https://example.com/meshes/elsewhere.glb?X-Signature=abc', model: 'swift' },
      },
    });
    const found = await call('jobs.original', { id: created.job.id });
    expect(found).toMatchObject({
      mesh: 'https://example.com/meshes/elsewhere.glb',
      original: null,
      reason: NOT_CACHED,
    });
    expect(found.reason).toContain('The original mesh is not in the local cache');
    // Any other kind of job has no original.
    expect((await call('jobs.original', { id: imageJob.id })).reason).toMatch(/Only a retopology job/);
  }, 30_000);
});
