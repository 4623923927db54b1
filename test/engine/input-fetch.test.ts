// Item 6 of issue 14: the engine reads the inputs it is given, as the service does: image URLs (image-to-3D,
// spins, v3 image_to_3d), mesh URLs (retopology, animation uploads) and style zips, over HTTP from a loopback
// server here (this machine has no internet), data URIs, and its own file URLs. An input that cannot be read
// or is not the right kind fails its session with a message that says which input and why. The bytes read
// are stored for the processors. Requests are raw fetch calls with JSON bodies, as third-party scripts send.
import { riggedCharacter } from '../fixtures.ts';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGlb, buildZip, encodePng } from '../../main/engine/outputs/index.ts';
import { KEY, makeDataDir, pollUntil, startTestEngine, type TestEngine } from './helpers.ts';

const PNG = encodePng(8, 8, new Uint8Array(8 * 8 * 4).fill(150));
const GLB = buildGlb({ seed: 'input-fetch', targetFaces: 200 });
const FBX = riggedCharacter();
const STYLE_ZIP = buildZip([
  { name: 'style/one.png', data: PNG },
  { name: 'style/two.png', data: PNG },
]);
const NOT_AN_IMAGE = buildZip([{ name: 'readme.txt', data: Buffer.from('hello') }]);

/** A stand-in for the buckets third-party scripts point at; `hold` keeps requests to /held/... open until released. */
interface Bucket {
  url(path: string): string;
  requests(path: string): number;
  release(): void;
  close(): Promise<void>;
}

async function startBucket(): Promise<Bucket> {
  const counts = new Map<string, number>();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const files: Record<string, [string, Buffer]> = {
    '/chair.png': ['image/png', PNG],
    '/statue.glb': ['model/gltf-binary', GLB],
    '/hero.fbx': ['application/octet-stream', FBX],
    '/styles.zip': ['application/zip', STYLE_ZIP],
    '/Failover-bucket/fail.png': ['image/png', PNG],
    '/not-an-image.png': ['image/png', NOT_AN_IMAGE],
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (path === '/moved.png') return void res.writeHead(302, { location: '/chair.png' }).end();
    if (path === '/stalls.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG.subarray(0, 10)); // and never the rest
      return;
    }
    if (path.startsWith('/held/')) {
      void released.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
      return;
    }
    const file = files[path];
    if (file === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such object');
    res.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests: (path) => counts.get(path) ?? 0,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let bucket: Bucket;
let engine: TestEngine;
beforeAll(async () => {
  bucket = await startBucket();
  engine = await startTestEngine();
});
afterAll(async () => {
  bucket.release();
  await engine.dispose();
  await bucket.close();
});

async function post(e: TestEngine, path: string, body: unknown, base = e.url): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  return path.startsWith('/v3/') ? json : json.data;
}

const get = async (e: TestEngine, path: string) => {
  const json = (await (await fetch(`${e.url}${path}`, { headers: { 'x-api-key': KEY } })).json()) as any;
  return path.startsWith('/v3/') ? json : json.data;
};

/** Creates a current-form image-to-3D session and waits for its end. */
async function imageTo3d(e: TestEngine, image_url: string): Promise<any> {
  const { session_code } = await post(e, '/image-to-3d-sessions', { image_url, resolution: 'low_poly' });
  return pollUntil(
    () => get(e, `/image-to-3d-sessions/${session_code}`),
    (s) => s.session_status === 'complete' || s.session_status === 'failed',
  );
}

/**
 * What a text-to-image session with a style comes to once the style's training ended: `completed`, `failed`,
 * or the message of a refusal that names the failed training.
 */
async function styleOutcome(styleId: string): Promise<string> {
  return pollUntil(
    async () => {
      const res = await fetch(`${engine.url}/tti-sessions`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ prompt: 'a lamp', style_id: styleId }),
      });
      const body = (await res.json()) as any;
      if (res.status === 400) return body.message as string; // refused while training, or once it failed
      const session = await pollUntil(
        () => get(engine, `/tti-sessions/${body.data.session_code}`),
        (x) => x.status === 'completed' || x.status === 'failed',
      );
      return session.status as string;
    },
    (outcome) => outcome === 'completed' || /failed/.test(outcome),
  );
}

describe('inputs are read', () => {
  it('fetches an image URL (redirects followed), stores its bytes, and keeps the URL given', async () => {
    const done = await imageTo3d(engine, bucket.url('/chair.png'));
    expect(done.session_status).toBe('complete');
    expect(done.image_url).toBe(bucket.url('/chair.png'));
    expect(done).not.toHaveProperty('error');
    expect(await readFile(join(engine.dataDir, 'files', done.session_code, 'input.png'))).toEqual(PNG);

    const moved = await imageTo3d(engine, bucket.url('/moved.png'));
    expect(moved.session_status).toBe('complete');
    // A URL that merely holds the word "fail" is read like any other.
    expect((await imageTo3d(engine, bucket.url('/Failover-bucket/fail.png'))).session_status).toBe('complete');
  });

  it('fails the session with a message naming the input and why it could not be used', async () => {
    const missing = await imageTo3d(engine, bucket.url('/missing.png'));
    expect(missing.session_status).toBe('failed');
    expect(missing.error).toBe(
      `The input image ${bucket.url('/missing.png')} could not be read: 127.0.0.1:${new URL(bucket.url('/')).port} answered 404 Not Found.`,
    );

    const wrong = await imageTo3d(engine, bucket.url('/not-an-image.png'));
    expect(wrong.session_status).toBe('failed');
    expect(wrong.error).toContain('is not an image (PNG, JPEG, WebP or GIF) (it starts like a zip archive)');

    const port = await closedPort();
    const refused = await imageTo3d(engine, `http://127.0.0.1:${port}/x.png?sig=secret`);
    expect(refused.error).toBe(
      `The input image http://127.0.0.1:${port}/x.png could not be read: nothing answers at 127.0.0.1:${port} (connection refused).`,
    );

    const garbage = await imageTo3d(
      engine,
      `data:image/png;base64,${Buffer.from('definitely not a png').toString('base64')}`,
    );
    expect(garbage.session_status).toBe('failed');
    expect(garbage.error).toMatch(/^The input image sent with the request is not an image/);

    // The older flow: a spin regenerated from an image that cannot be read fails as spin_generate_failed.
    const older = await post(
      engine,
      '/image-to-3d-sessions',
      { image_url: bucket.url('/chair.png') },
      engine.legacyUrl,
    );
    const spun = await pollUntil(
      () => get(engine, `/image-to-3d-sessions/${older.session_code}`),
      (s) => /spin_generate_(done|failed)/.test(s.status),
    );
    expect(spun.status).toBe('spin_generate_done');
    await post(engine, '/image-to-3d-sessions/submit-spin-jobs', {
      session_code: older.session_code,
      image_urls: [bucket.url('/gone.png')],
    });
    const respun = await pollUntil(
      () => get(engine, `/image-to-3d-sessions/${older.session_code}`),
      (s) => /spin_generate_(done|failed)/.test(s.status) && s.spins.length === 0,
    );
    expect(respun.status).toBe('spin_generate_failed');
    expect(respun.error).toContain(`${bucket.url('/gone.png')} could not be read`);
  });

  it('reads mesh URLs for retopology (and an ASSET_ id again without fetching) and animation uploads', async () => {
    const retopo = await post(engine, '/v3/sessions', {
      type: 'retopology',
      input: { mesh: bucket.url('/statue.glb'), model: 'swift', quads: true },
    });
    const done = await pollUntil(
      () => get(engine, `/v3/sessions/${retopo._id}`),
      (s) => s.status !== 'incomplete',
    );
    expect(done.status).toBe('complete');
    const fetched = bucket.requests('/statue.glb');
    const again = await post(engine, '/v3/sessions', {
      type: 'retopology',
      input: { mesh: retopo.input.mesh._id, model: 'swift' },
    });
    expect(
      (
        await pollUntil(
          () => get(engine, `/v3/sessions/${again._id}`),
          (s) => s.status !== 'incomplete',
        )
      ).status,
    ).toBe('complete');
    expect(bucket.requests('/statue.glb')).toBe(fetched);

    const notMesh = await post(engine, '/v3/sessions', {
      type: 'retopology',
      input: { mesh: bucket.url('/chair.png'), model: 'swift' },
    });
    const failed = await pollUntil(
      () => get(engine, `/v3/sessions/${notMesh._id}`),
      (s) => s.status !== 'incomplete',
    );
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('is not a 3D model (GLB, glTF, OBJ, FBX or USDZ) (it starts like a PNG image)');

    const upload = await post(engine, '/mesh-animation/upload', { mesh_url: bucket.url('/hero.fbx') });
    expect(
      (
        await pollUntil(
          () => get(engine, `/mesh-animation/${upload.session_code}`),
          (s) => /predefined_done|failed/.test(s.status),
        )
      ).status,
    ).toBe('predefined_done');
    const badUpload = await post(engine, '/mesh-animation/upload', { mesh_url: bucket.url('/statue.glb') });
    const badAnimation = await pollUntil(
      () => get(engine, `/mesh-animation/${badUpload.session_code}`),
      (s) => /predefined_done|failed/.test(s.status),
    );
    expect(badAnimation.status).toBe('init_failed');
    expect(badAnimation.error).toContain(
      'is not an FBX file or a zip of FBX files (it starts like a GLB (binary glTF) model)',
    );
  });

  it("reads the image of a v3 image_to_3d session and a style's zip", async () => {
    const v3 = await post(engine, '/v3/sessions', {
      type: 'image_to_3d',
      input: { image: bucket.url('/missing.png'), model: 'sculpt', settings: {} },
    });
    const failed = await pollUntil(
      () => get(engine, `/v3/sessions/${v3._id}`),
      (s) => s.status !== 'incomplete',
    );
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('answered 404');
    expect(failed.output.mesh.status).toBe('failed');

    const good = await post(engine, '/tti-styles', { zip_url: bucket.url('/styles.zip'), description: 'ink' });
    const bad = await post(engine, '/tti-styles', { zip_url: bucket.url('/chair.png'), description: 'not a zip' });
    expect(await styleOutcome(good.style_id)).toBe('completed');
    expect(bucket.requests('/styles.zip')).toBe(1);
    expect(await styleOutcome(bad.style_id)).toMatch(/failed/);
  });

  it('keeps to the size cap and the time limit, and refuses other hosts when set to', async () => {
    const strict = await startTestEngine({ inputs: { maxBytes: 50, timeoutMs: 500, remoteHosts: 'refuse' } });
    try {
      const big = await imageTo3d(strict, bucket.url('/chair.png'));
      expect(big.error).toContain(
        `could not be read: it is ${PNG.length} bytes, more than the 50 bytes the engine reads.`,
      );
      const stalled = await imageTo3d(strict, bucket.url('/stalls.png'));
      expect(stalled.error).toContain('it was not read within 0.5 s');
      const remote = await imageTo3d(strict, 'https://assets.example.invalid/chair.png');
      expect(remote.error).toContain('the engine is set to read inputs from this machine only');
      const local = await imageTo3d(strict, `data:image/png;base64,${PNG.toString('base64')}`);
      expect(local.error).toContain(
        `The input image sent with the request is ${PNG.length} bytes, more than the 50 bytes allowed for an image`,
      );
    } finally {
      await strict.dispose();
    }
  });

  it('reads a *.localhost name from 127.0.0.1, never from DNS (RFC 6761), also when only loopback is allowed', async () => {
    const strict = await startTestEngine({ inputs: { remoteHosts: 'refuse' } });
    try {
      const before = bucket.requests('/chair.png');
      for (const name of ['evil.localhost', 'A.B.LOCALHOST.']) {
        const url = bucket.url('/chair.png').replace('127.0.0.1', name);
        const session = await imageTo3d(strict, url);
        expect(session.session_status, session.error).toBe('complete');
      }
      expect(bucket.requests('/chair.png')).toBe(before + 2);
    } finally {
      await strict.dispose();
    }
  });

  it('reads its own file URLs from its files, and an input still being read when it stopped once it starts again', async () => {
    const source = await imageTo3d(engine, bucket.url('/chair.png'));
    const forged = new URL(source.mesh_url_glb);
    forged.searchParams.set('sig', 'forged');
    const retopo = await post(engine, '/v3/sessions', {
      type: 'retopology',
      input: { mesh: forged.href, model: 'swift' },
    });
    const refused = await pollUntil(
      () => get(engine, `/v3/sessions/${retopo._id}`),
      (s) => s.status !== 'incomplete',
    );
    expect(refused.error).toContain('answered 403 Forbidden');

    const dataDir = await makeDataDir();
    const first = await startTestEngine({ dataDir });
    const { session_code } = await post(first, '/image-to-3d-sessions', { image_url: bucket.url('/held/chair.png') });
    await pollUntil(
      async () => bucket.requests('/held/chair.png'),
      (n) => n > 0,
    );
    await first.close();
    bucket.release();
    const second = await startTestEngine({ dataDir });
    try {
      const done = await pollUntil(
        () => get(second, `/image-to-3d-sessions/${session_code}`),
        (s) => s.session_status === 'complete' || s.session_status === 'failed',
      );
      expect(done.session_status).toBe('complete');
      expect(bucket.requests('/held/chair.png')).toBe(2);
    } finally {
      await second.dispose();
    }
  });
});
