// One way to serve files (#13 item 6): the web host (over HTTP) and Electron's app:// handler (called
// directly with a Request-like object, as protocol.handle would) answer the same cached outputs, files in a
// cached zip and renderer files with the same status, headers and bytes: the GLB type, ranges, ETag and
// If-None-Match, HEAD, 416 and 404. Electron's handler used to send a cached GLB as application/octet-stream.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheEntryPath, cachePath } from '../../shared/bridge/web-protocol.ts';
import { makeArtifact } from '../../main/engine/artifacts.ts';
import { buildGlb, buildZip, renderTexture } from '../../main/engine/outputs/index.ts';
import { appProtocolHandler } from '../../main/host/app-protocol.ts';
import { contentSecurityPolicy, securityHeaders } from '../../main/host/static.ts';
import { startWebHost, type RunningWebHost } from '../../main/host/web-host.ts';
import { closeZipEntries } from '../../main/cache/zip-entries.ts';
import { raw, tempDir } from './helpers.ts';

const SESSION = 'SESSION_served';
const GLB = buildGlb({ seed: 'served', targetFaces: 200 });
const FILES: Record<string, Buffer> = {
  glb: GLB,
  'prompt:walk:usdz': buildZip([{ name: 'model.usdc', data: Buffer.from('usd') }]),
  image: renderTexture('served'),
  retopo_obj: Buffer.from('# a retopologized mesh\nmtllib mesh.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'),
  'retopo_obj:mesh.mtl': Buffer.from('newmtl skin\nmap_Kd mesh.png\n'),
  'retopo_obj:mesh.png': renderTexture('served'),
  zip: makeArtifact({ type: 'obj-zip', mesh: { seed: 'served' }, folder: SESSION }),
};

const data = tempDir('app-protocol');
const rendererDir = join(data.path, 'renderer');
let host: RunningWebHost;
let auth: Record<string, string>;
let origin: Server;
let app: ReturnType<typeof appProtocolHandler>;

beforeAll(async () => {
  mkdirSync(join(rendererDir, 'chunks'), { recursive: true });
  mkdirSync(join(rendererDir, 'babylon'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Asset Studio</title>');
  writeFileSync(join(rendererDir, 'chunks', 'viewer-abc123.js'), 'export const viewer = 1;\n');
  writeFileSync(join(rendererDir, 'babylon', 'ktx2-worker.js'), 'self.onmessage = () => {};\n');
  host = await startWebHost({ dataDir: join(data.path, 'data'), rendererDir, serviceOptions: { engineSpeed: 500 } });
  auth = { host: `127.0.0.1:${host.port}`, authorization: `Bearer ${host.token}` };
  origin = createServer((req, res) => {
    const body = FILES[decodeURIComponent((req.url ?? '/').slice(1))];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((ok) => origin.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  for (const kind of Object.keys(FILES)) {
    await host.bridge.services.cache.fetchOutput({
      sessionId: SESSION,
      kind,
      url: `${base}/${encodeURIComponent(kind)}`,
    });
  }
  app = appProtocolHandler({
    host: 'studio',
    rendererDir,
    cache: () => host.bridge.services.cache,
    headers: securityHeaders(contentSecurityPolicy()),
  });
});

afterAll(async () => {
  closeZipEntries();
  await new Promise<void>((done) => origin.close(() => done()));
  await host.close();
  data.remove();
});

/** The headers of an answer about the file itself (the CSP differs: the web host adds its event socket). */
const FILE_HEADERS = ['content-type', 'content-length', 'accept-ranges', 'etag', 'cache-control', 'content-range'];

interface Served {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

async function overWebHost(path: string, method: string, headers: Record<string, string>): Promise<Served> {
  const res = await raw(host.port, { method, path, headers: { ...auth, ...headers } });
  const picked = Object.fromEntries(
    FILE_HEADERS.flatMap((h) => (res.headers[h] === undefined ? [] : [[h, String(res.headers[h])]])),
  );
  return { status: res.status, headers: picked, body: Buffer.from(res.body, 'utf8') };
}

async function overAppProtocol(path: string, method: string, headers: Record<string, string>): Promise<Served> {
  const res = await app({ url: `app://studio${path}`, method, headers: new Headers(headers) });
  const picked = Object.fromEntries(
    FILE_HEADERS.flatMap((h) => (res.headers.get(h) === null ? [] : [[h, res.headers.get(h)!]])),
  );
  return { status: res.status, headers: picked, body: Buffer.from(await res.arrayBuffer()) };
}

/** Both transports, compared; the web host's answer is returned for the case's own checks. */
async function same(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Served> {
  const web = await overWebHost(path, method, headers);
  const electron = await overAppProtocol(path, method, headers);
  expect(electron.status, `${method} ${path}`).toBe(web.status);
  expect(electron.headers, `${method} ${path}`).toEqual(web.headers);
  expect(electron.body.toString('utf8'), `${method} ${path}`).toBe(web.body.toString('utf8'));
  return web;
}

describe('the web host and the app:// protocol serve files alike', () => {
  it('a cached GLB: model/gltf-binary, its length, a validator', async () => {
    const full = await same(cachePath(SESSION, 'glb'));
    expect(full.status).toBe(200);
    expect(full.headers).toMatchObject({
      'content-type': 'model/gltf-binary',
      'content-length': String(GLB.length),
      'accept-ranges': 'bytes',
      'cache-control': 'private, max-age=3600',
    });
    expect(full.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('a range (206), an unsatisfiable one (416), a matching If-None-Match (304), HEAD', async () => {
    const path = cachePath(SESSION, 'glb');
    const part = await same(path, { range: 'bytes=0-3' });
    expect(part.status).toBe(206);
    expect(part.headers).toMatchObject({ 'content-range': `bytes 0-3/${GLB.length}`, 'content-length': '4' });
    expect(part.body.toString('latin1')).toBe('glTF');
    expect((await same(path, { range: 'bytes=-8' })).headers['content-range']).toBe(
      `bytes ${GLB.length - 8}-${GLB.length - 1}/${GLB.length}`,
    );
    const outside = await same(path, { range: `bytes=${GLB.length}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${GLB.length}`);
    const { etag } = (await same(path, {}, 'HEAD')).headers;
    expect((await same(path, { 'if-none-match': `W/"other", ${etag}` })).status).toBe(304);
    const head = await same(path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(GLB.length));
    expect(head.body.length).toBe(0);
  });

  it('the type of a cached output comes from its bytes (a blob has no extension)', async () => {
    expect((await same(cachePath(SESSION, 'prompt:walk:usdz'))).headers['content-type']).toBe('model/vnd.usdz+zip');
    expect((await same(cachePath(SESSION, 'image'))).headers['content-type']).toBe('image/png');
    expect((await same(cachePath(SESSION, 'zip'))).headers['content-type']).toBe('application/zip');
    expect((await same(cachePath(SESSION, 'retopo_obj'))).headers['content-type']).toBe('model/obj');
  });

  it('a file inside a cached zip, and the 404s of a missing output or entry', async () => {
    const obj = await same(cacheEntryPath(SESSION, 'zip', `${SESSION}/mesh.obj`));
    expect(obj.status).toBe(200);
    expect(obj.headers['content-type']).toBe('model/obj');
    expect(obj.body.toString('utf8')).toMatch(/^# .*\nmtllib mesh\.mtl\n/);
    const missing = await same(cachePath(SESSION, 'fbx'));
    expect(missing.status).toBe(404);
    expect(missing.body.toString('utf8')).toContain('is not in the cache');
    expect((await same(cacheEntryPath(SESSION, 'zip', 'nothing.obj'))).status).toBe(404);
    expect((await same('/cache/')).status).toBe(404);
  });

  it('an OBJ output is served as a file in a folder of its own, with the MTL and texture it names beside it', async () => {
    const path = cachePath(SESSION, 'retopo_obj');
    expect(path).toBe(`/cache/${SESSION}/retopo_obj/retopo_obj.obj`);
    expect((await same(path)).body.toString('utf8')).toBe(FILES.retopo_obj!.toString('utf8'));
    // What a viewer loading the OBJ asks for: the names it reads, resolved against the OBJ's URL.
    const mtl = await same(new URL('mesh.mtl', `http://x${path}`).pathname);
    expect(mtl.status).toBe(200);
    expect(mtl.body.toString('utf8')).toContain('map_Kd mesh.png');
    const texture = await same(new URL('mesh.png', `http://x${path}`).pathname);
    expect(texture.headers['content-type']).toBe('image/png');
    const absent = await same(new URL('other.mtl', `http://x${path}`).pathname);
    expect(absent.status).toBe(404);
    expect(absent.body.toString('utf8')).toContain('retopo_obj:other.mtl');
  });

  it("the renderer's files: caching by kind of file, the worker's own CSP", async () => {
    expect((await same('/')).headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    expect((await same('/chunks/viewer-abc123.js')).headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect((await same('/nothing.js')).status).toBe(404);
    const worker = await raw(host.port, { path: '/babylon/ktx2-worker.js', headers: auth });
    const fromApp = await app({ url: 'app://studio/babylon/ktx2-worker.js', method: 'GET', headers: new Headers() });
    expect(fromApp.headers.get('content-security-policy')).toBe(worker.headers['content-security-policy']);
    expect(worker.headers['content-security-policy']).toContain("'unsafe-eval'");
  });
});
