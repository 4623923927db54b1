import { chmodSync, createReadStream, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { COMMANDS, EVENTS } from '../../shared/bridge/contract.ts';
import { WEB_PROTOCOL, type EventMessage, type UploadAnswer } from '../../shared/bridge/web-protocol.ts';
import { cacheCapability, withCacheCapability } from '../../main/host/token.ts';
import { startWebHost, type RunningWebHost } from '../../main/host/web-host.ts';
import { realFixture } from '../fixtures.ts';
import { callCommand, raw, tempDir, until } from './helpers.ts';

const data = tempDir('web-host');
const renderer = join(data.path, 'renderer');
let host: RunningWebHost;
let authorization: string;
let hostHeader: string;

beforeAll(async () => {
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>test</title><p>hello</p>');
  mkdirSync(join(renderer, 'chunks'));
  writeFileSync(join(renderer, 'chunks', 'module-ABC123.js'), 'export const a = 1;');
  writeFileSync(join(renderer, 'app.js'), 'console.log(1);');
  mkdirSync(join(renderer, 'babylon'));
  writeFileSync(join(renderer, 'babylon', 'ktx2-worker.js'), 'onmessage = () => {};');
  host = await startWebHost({
    dataDir: join(data.path, 'data'),
    rendererDir: renderer,
    serviceOptions: { engineSpeed: 500 },
  });
  hostHeader = `127.0.0.1:${host.port}`;
  authorization = `Bearer ${host.token}`;
});

afterAll(async () => {
  await host.close();
  data.remove();
});

function call(command: string, input: unknown, headers: Record<string, string> = { authorization }) {
  return raw(host.port, {
    method: 'POST',
    path: `/api/call/${command}`,
    headers: { host: hostHeader, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });
}

function socket(
  headers: Record<string, string>,
  protocols: string[] = [],
): Promise<{ ws: WebSocket } | { refused: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${WEB_PROTOCOL.events}`, protocols, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ refused: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ refused: -1 }));
  });
}

describe('access', () => {
  it('refuses requests without the token, or with a wrong one', async () => {
    expect((await call('app.info', {}, {})).status).toBe(401);
    expect((await raw(host.port, { path: '/?token=wrong', headers: { host: hostHeader } })).status).toBe(401);
    expect((await call('app.info', {}, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('app.info', {}, { authorization: `Bearer ${host.token}` })).status).toBe(200);
  });

  it('a cookie never suffices, and none is set: cached outputs are read with a capability in their path (issue #33: a cookie reaches every local port)', async () => {
    const link = await raw(host.port, { path: `/?token=${host.token}`, headers: { host: hostHeader } });
    expect(link.headers['set-cookie']).toBeUndefined();
    const capability = cacheCapability(host.token);
    for (const cookie of [
      `asset_studio_token=${host.token}`,
      `${WEB_PROTOCOL.cacheCookieName}=${capability}`,
      `${WEB_PROTOCOL.cacheCookieName}=${host.token}`,
    ]) {
      expect((await call('app.info', {}, { cookie })).status, cookie).toBe(401);
      expect((await call('key.set', { key: 'sk_stolen' }, { cookie })).status, cookie).toBe(401);
      const upload = await raw(host.port, {
        method: 'POST',
        path: WEB_PROTOCOL.upload,
        headers: { host: hostHeader, cookie, 'x-file-name': 'a.png', 'content-type': 'application/octet-stream' },
        body: 'x',
      });
      expect(upload.status, cookie).toBe(401);
      expect(await socket({ origin: `http://${hostHeader}`, cookie }), cookie).toEqual({ refused: 401 });
      // What a local server on another port could have received and replayed opens no cached output either.
      const cached = await raw(host.port, { path: '/cache/SESSION_none/glb', headers: { host: hostHeader, cookie } });
      expect(cached.status, cookie).toBe(401);
    }
    // The capability in the path reads cached outputs only (an unknown one: 404, not 401); a wrong one is refused.
    const cached = (path: string, headers: Record<string, string> = {}) =>
      raw(host.port, { path, headers: { host: hostHeader, ...headers } });
    expect(withCacheCapability('/cache/SESSION_none/glb', host.token)).toBe(`/cache/~${capability}/SESSION_none/glb`);
    expect((await cached(`/cache/~${capability}/SESSION_none/glb`)).status).toBe(404);
    expect((await cached(`/cache/~${host.token}/SESSION_none/glb`)).status).toBe(401);
    expect((await cached('/cache/~/SESSION_none/glb')).status).toBe(401);
    expect((await cached('/cache/SESSION_none/glb', { authorization })).status).toBe(404);
    expect((await call('app.info', {}, { authorization: `Bearer ${capability}` })).status).toBe(401);
  });

  it('refuses a foreign Host header (DNS rebinding), even with the token', async () => {
    const res = await raw(host.port, { path: '/', headers: { host: `evil.example:${host.port}`, authorization } });
    expect(res.status).toBe(421);
    expect((await raw(host.port, { path: `/?token=${host.token}`, headers: { host: 'evil.example' } })).status).toBe(
      421,
    );
    expect((await call('app.info', {}, { host: `127.0.0.1:${host.port + 1}`, authorization })).status).toBe(421);
  });

  it('refuses a command posted from another origin', async () => {
    expect((await call('app.info', {}, { authorization, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('serves the page for the link without a cookie', async () => {
    const res = await raw(host.port, { path: `/?token=${host.token}`, headers: { host: hostHeader } });
    expect(res.status).toBe(200);
    expect(res.body).toContain('hello');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    // The renderer's files hold no secret: a reload of the page (the token in its sessionStorage) is served.
    const page = await raw(host.port, { path: '/', headers: { host: `localhost:${host.port}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('hello');
  });

  it('sends the CSP and hardening headers on every response, refusals included', async () => {
    for (const res of [
      await raw(host.port, { path: '/', headers: { host: hostHeader } }),
      await call('app.info', {}, {}),
      await call('app.info', {}),
    ]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port} ws://localhost:${host.port}`);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it("serves the KTX2 worker with a policy of its own that allows eval (its transcoder needs it), the page's without", async () => {
    const get = (path: string) => raw(host.port, { path, headers: { host: hostHeader, authorization } });
    const worker = String((await get('/babylon/ktx2-worker.js')).headers['content-security-policy']);
    expect(worker).toBe(
      "default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'; object-src 'none'; base-uri 'none'",
    );
    for (const path of [
      '/',
      '/app.js',
      '/chunks/module-ABC123.js',
      '/babylon/ktx2-worker.js.map',
      '/babylon/other.js',
    ]) {
      expect(String((await get(path)).headers['content-security-policy']), path).not.toContain("'unsafe-eval'");
    }
  });

  it('caches hashed chunks for good, revalidates other files by ETag, and never caches the page', async () => {
    const get = (path: string, headers: Record<string, string> = {}) =>
      raw(host.port, { path, headers: { host: hostHeader, authorization, ...headers } });
    const chunk = await get('/chunks/module-ABC123.js');
    expect(chunk.status).toBe(200);
    expect(chunk.headers['cache-control']).toContain('immutable');
    const app = await get('/app.js');
    expect(app.headers['cache-control']).toBe('no-cache');
    expect(app.headers.etag).toMatch(/^".+"$/);
    const again = await get('/app.js', { 'if-none-match': String(app.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect((await get('/app.js', { 'if-none-match': '"stale"' })).body).toBe('console.log(1);');
    expect((await get('/')).headers['cache-control']).toBe('no-store');
  });

  it('does not serve files outside the renderer folder', async () => {
    expect(
      (await raw(host.port, { path: '/..%2f..%2fetc%2fpasswd', headers: { host: hostHeader, authorization } })).status,
    ).toBe(404);
  });
});

describe('event socket', () => {
  it('refuses another origin, and a missing token', async () => {
    expect(await socket({ origin: 'http://evil.example', authorization })).toEqual({ refused: 403 });
    expect(await socket({ origin: `http://${hostHeader}` })).toEqual({ refused: 401 });
    expect(await socket({ authorization })).toEqual({ refused: 403 }); // no Origin at all
    expect(
      await socket({ origin: `http://${hostHeader}` }, [WEB_PROTOCOL.socketProtocol, 'asset-studio.token.wrong']),
    ).toEqual({
      refused: 401,
    });
  });

  it("opens with the token as a subprotocol, as a browser's page sends it, and never echoes the token", async () => {
    const opened = await socket({ origin: `http://${hostHeader}` }, [
      WEB_PROTOCOL.socketProtocol,
      `${WEB_PROTOCOL.socketTokenPrefix}${host.token}`,
    ]);
    if (!('ws' in opened)) throw new Error(`socket refused: ${opened.refused}`);
    expect(opened.ws.protocol).toBe(WEB_PROTOCOL.socketProtocol);
    opened.ws.close();
  });
});

describe('round trips', () => {
  it('answers app.info and jobs.list', async () => {
    const info = await call('app.info', {});
    expect(info.status).toBe(200);
    expect(COMMANDS['app.info'].output.parse(JSON.parse(info.body))).toMatchObject({
      mode: 'embedded',
      transport: 'web',
    });
    const jobs = await call('jobs.list', {});
    expect(COMMANDS['jobs.list'].output.parse(JSON.parse(jobs.body)).total).toBe(0);
  });

  it('answers a refused input with a BridgeError and 400', async () => {
    const res = await call('jobs.get', {});
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'invalid-input', issues: [{ path: 'id' }] });
  });

  it('answers a command name with a malformed percent-escape with 400 and what to send', async () => {
    const res = await call('%E0%A4%A', {});
    expect(res.status).toBe(400);
    const error = JSON.parse(res.body) as { code: string; message: string; issues: { path: string }[] };
    expect(error).toMatchObject({ code: 'invalid-input', issues: [{ path: 'command' }] });
    expect(error.message).toMatch(/%E0%A4%A.*malformed percent-escape/);
    expect((await call('%E0%A4%A8', {})).status).toBe(400); // well-formed, but no such command
  });

  it('pushes the job events of a create on the socket, and serves its cached output with Range', async () => {
    const opened = await socket({ origin: `http://${hostHeader}`, authorization });
    if (!('ws' in opened)) throw new Error(`socket refused: ${opened.refused}`);
    const messages: EventMessage[] = [];
    opened.ws.on('message', (frame) => messages.push(JSON.parse(String(frame)) as EventMessage));
    try {
      const res = await call('create', { endpoint: 'createTextToImage', body: { prompt: 'a red barrel' } });
      expect(res.status).toBe(200);
      const { job } = JSON.parse(res.body) as { job: { id: string; remoteId: string } };
      await until(
        () => messages.find((m) => m.event === 'job' && (m.payload as { id: string }).id === job.id),
        10_000,
        'a job event',
      );
      const output = await until(
        () =>
          messages.find(
            (m) => m.event === 'cache.output' && (m.payload as { sessionId: string }).sessionId === job.remoteId,
          )?.payload as { url: string | null } | undefined,
        20_000,
        'the cached output',
      );
      expect(output.url).toMatch(/^\/cache\/~[\w-]{43}\//); // the read capability, for images and the viewer
      const whole = await raw(host.port, { path: output.url!, headers: { host: hostHeader, authorization } });
      expect(whole.status).toBe(200);
      const part = await raw(host.port, {
        path: output.url!,
        headers: { host: hostHeader, authorization, range: 'bytes=0-7' },
      });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toMatch(/^bytes 0-7\/\d+$/);
      expect(part.body.length).toBeLessThanOrEqual(8);
      expect((await raw(host.port, { path: output.url!, headers: { host: hostHeader } })).status).toBe(200);
      const bare = output.url!.replace(/^\/cache\/~[^/]*\//, '/cache/');
      expect((await raw(host.port, { path: bare, headers: { host: hostHeader } })).status).toBe(401);
      expect((await raw(host.port, { path: bare, headers: { host: hostHeader, authorization } })).status).toBe(200);
    } finally {
      opened.ws.close();
    }
  });

  it('takes a real FBX through /api/upload and creates the animation job from its upload id', async () => {
    const fbx = realFixture('fbx', 'maya_kenney_character_7700_binary.fbx');
    const upload = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      // Streamed, like the browser's XHR: the body is never built in memory here either.
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: host.port,
            method: 'POST',
            path: WEB_PROTOCOL.upload,
            headers: {
              host: hostHeader,
              authorization,
              [WEB_PROTOCOL.fileNameHeader]: encodeURIComponent('Kenney (test).fbx'),
              'content-type': 'application/octet-stream',
              'content-length': statSync(fbx).size,
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        createReadStream(fbx).pipe(req);
      }, reject);
    });
    expect(upload.status).toBe(200);
    const answer = JSON.parse(upload.body) as UploadAnswer;
    expect(answer).toMatchObject({ name: 'Kenney (test).fbx', size: statSync(fbx).size });
    // The page follows the second leg too (host → service) by the create's operation id.
    const opened = await socket({ origin: `http://${hostHeader}`, authorization });
    if (!('ws' in opened)) throw new Error(`socket refused: ${opened.refused}`);
    const progress: { operationId: string; sent: number; total: number }[] = [];
    opened.ws.on('message', (frame) => {
      const m = JSON.parse(String(frame)) as EventMessage;
      if (m.event === 'create.upload') progress.push(EVENTS['create.upload'].parse(m.payload));
    });
    try {
      const res = await call('create', {
        endpoint: 'uploadAnimationMesh',
        file: { uploadId: answer.uploadId },
        operationId: 'op_fbx_progress',
      });
      expect(res.status).toBe(200);
      const created = COMMANDS.create.output.parse(JSON.parse(res.body));
      expect(created.job).toMatchObject({ kind: 'animation_session', label: 'Kenney (test).fbx' });
      const last = await until(
        () => progress.find((p) => p.sent === p.total),
        10_000,
        'the last upload progress event',
      );
      expect(last).toMatchObject({ operationId: 'op_fbx_progress', total: statSync(fbx).size });
      expect(progress.every((p) => p.operationId === 'op_fbx_progress' && p.sent <= p.total)).toBe(true);
    } finally {
      opened.ws.close();
    }
  });

  it('refuses local paths and unknown upload ids on the web host', async () => {
    const byPath = await call('create', { endpoint: 'uploadAnimationMesh', file: { path: '/etc/passwd' } });
    expect(byPath.status).toBe(400);
    expect(JSON.parse(byPath.body)).toMatchObject({ code: 'invalid-input' });
    expect((await call('create', { endpoint: 'uploadAnimationMesh', file: { uploadId: 'upload_nope' } })).status).toBe(
      404,
    );
  });
});

describe('the data folder (web host)', () => {
  const posix = process.platform !== 'win32';
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
  const start = (dataDir: string, notice?: (line: string) => void) =>
    startWebHost({ dataDir, rendererDir: renderer, serviceOptions: { engineSpeed: 500 }, ...(notice && { notice }) });

  it.skipIf(!posix)(
    'is created 0700 with the database and its -wal/-shm 0600; an existing one is tightened on start, with one line',
    async () => {
      const dataDir = join(data.path, 'private');
      const first = await start(dataDir);
      try {
        const db = join(dataDir, 'asset-studio.db');
        expect(mode(dataDir)).toBe('700');
        for (const file of [db, `${db}-wal`, `${db}-shm`, join(dataDir, 'engine-key')])
          expect({ file, mode: mode(file) }).toEqual({ file, mode: '600' });
      } finally {
        await first.close();
      }

      // As an earlier version left it: every file and folder readable by all.
      chmodSync(dataDir, 0o755);
      for (const file of readdirSync(dataDir, { recursive: true }).map((p) => join(dataDir, String(p))))
        chmodSync(file, statSync(file).isDirectory() ? 0o755 : 0o644);
      const lines: string[] = [];
      const second = await start(dataDir, (line) => lines.push(line));
      try {
        expect(lines).toEqual([
          expect.stringMatching(
            new RegExp(
              `^The data folder ${dataDir} could be read by other users \\(\\d+ items\\): made it private to you`,
            ),
          ),
          expect.stringMatching(/^The cache folder .* made it private/),
        ]);
        for (const path of [
          dataDir,
          ...readdirSync(dataDir, { recursive: true }).map((p) => join(dataDir, String(p))),
        ]) {
          expect({ path, mode: mode(path) }).toEqual({ path, mode: statSync(path).isDirectory() ? '700' : '600' });
        }
      } finally {
        await second.close();
      }
    },
  );

  it('a file as the data folder is refused with what to do, before anything starts', async () => {
    const file = join(data.path, 'a-file');
    writeFileSync(file, '');
    await expect(start(file)).rejects.toMatchObject({
      exitCode: 2,
      message: `The data folder ${file} is a file, not a folder. Move that file away, or point --data-dir (or ASSET_STUDIO_DATA_DIR) at another folder.`,
    });
  });

  it('the cache folder setting never takes a folder with other files: it uses a subfolder, and refuses a file', async () => {
    const host = await start(join(data.path, 'cache-setting'));
    const post = (input: unknown) => callCommand(host, 'settings.update', input);
    try {
      const projects = join(data.path, 'Projects');
      mkdirSync(join(projects, 'tmp'), { recursive: true });
      writeFileSync(join(projects, 'tmp', 'render.part'), 'mine');
      const answer = await post({ cache: { dir: projects } });
      expect(answer.status).toBe(200);
      const used = join(projects, 'Asset Studio Cache');
      expect(COMMANDS['settings.update'].output.parse(JSON.parse(answer.body)).cache.dir).toBe(used);
      expect(host.bridge.services.cache.dir).toBe(used);
      expect(readdirSync(projects).sort()).toEqual(['Asset Studio Cache', 'tmp']);

      const file = join(data.path, 'not-a-folder');
      writeFileSync(file, '');
      const refused = await post({ cache: { dir: file } });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({
        code: 'invalid-input',
        issues: [{ path: 'cache.dir', message: expect.stringMatching(/is a file, not a folder/) }],
      });
      expect(host.bridge.services.cache.dir).toBe(used);
    } finally {
      await host.close();
    }
  });
});
