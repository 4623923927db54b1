// The lean reader of the download fast path (main/cache/fast-get.ts) against small node:http(s) servers:
// plain and ranged answers, a consumer that pauses, what it leaves to undici (chunked), a cut body, an
// oversized head, TLS, and cancelling. Also through the cache, so the downloader's handling is checked.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadCache } from '../../../main/cache/download-cache.ts';
import { DownloadError } from '../../../main/cache/downloader.ts';
import { fastGet, FastGetError, type BodySink, type FastResponse } from '../../../main/cache/fast-get.ts';
import { openDatabase } from '../../../main/store/database.ts';

const BODY = randomBytes(3 << 20);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  cleanup.push(() => server.closeAllConnections());
  return (server.address() as AddressInfo).port;
}

/** An http server; its URL and the requests it saw. */
async function serve(handler: Handler): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const port = await listen(
    createServer((req, res) => {
      requests.push(req);
      handler(req, res);
    }),
  );
  return { url: `http://127.0.0.1:${port}/files/out.glb?sig=x`, requests };
}

/** Serves BODY with a strong ETag, honouring `Range: bytes=N-` like the service. */
const ranged: Handler = (req, res) => {
  const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
  if (from > 0) {
    res.writeHead(206, {
      etag: '"v1"',
      'content-length': BODY.length - from,
      'content-range': `bytes ${from}-${BODY.length - 1}/${BODY.length}`,
    });
    res.end(BODY.subarray(from));
  } else {
    res.writeHead(200, { etag: '"v1"', 'content-length': BODY.length });
    res.end(BODY);
  }
};

/** A sink that collects into one buffer, offering at most `step` bytes per read and pausing every `pauseEvery` reads. */
function collector(res: FastResponse, step = 1 << 20, pauseEvery = 0): BodySink & { bytes(): Buffer; pauses: number } {
  const all = Buffer.alloc(res.contentLength!);
  let fill = 0;
  let reads = 0;
  const sink = {
    pauses: 0,
    bytes: () => all.subarray(0, fill),
    space: () => all.subarray(fill, fill + step),
    filled: (bytes: number) => {
      fill += bytes;
      if (pauseEvery === 0 || ++reads % pauseEvery !== 0) return true;
      sink.pauses++;
      setTimeout(() => res.resume(), 2);
      return false;
    },
  };
  return sink;
}

describe('fast reader', () => {
  it('reads a 200 with a Content-Length into the sink, with the request it needs', async () => {
    const server = await serve(ranged);
    const res = (await fastGet(server.url))!;
    expect(res).toMatchObject({ status: 200, contentLength: BODY.length, headers: { etag: '"v1"' } });
    const sink = collector(res);
    await res.readBody(sink);
    expect(sha256(sink.bytes())).toBe(sha256(BODY));
    expect(server.requests[0]!.headers).toMatchObject({
      host: new URL(server.url).host,
      'accept-encoding': 'identity',
      connection: 'close',
    });
    expect(server.requests[0]!.url).toBe('/files/out.glb?sig=x');
  });

  it('resumes with Range and If-Range (206), and copes with a consumer that pauses and offers little room', async () => {
    const server = await serve(ranged);
    const from = 1_000_003;
    const res = (await fastGet(server.url, { headers: { range: `bytes=${from}-`, 'if-range': '"v1"' } }))!;
    expect(res).toMatchObject({
      status: 206,
      contentLength: BODY.length - from,
      headers: { 'content-range': `bytes ${from}-${BODY.length - 1}/${BODY.length}` },
    });
    const sink = collector(res, 10_000, 7);
    await res.readBody(sink);
    expect(sink.pauses).toBeGreaterThan(0);
    expect(sha256(sink.bytes())).toBe(sha256(BODY.subarray(from)));
    expect(server.requests[0]!.headers).toMatchObject({ range: `bytes=${from}-`, 'if-range': '"v1"' });
  });

  it('answers other statuses with their head only, and leaves chunked bodies and redirects to undici', async () => {
    let status = 403;
    const server = await serve((_req, res) => {
      if (status === 200) res.writeHead(200, { 'transfer-encoding': 'chunked' }).end('chunked body');
      else if (status === 302) res.writeHead(302, { location: '/elsewhere', 'content-length': 0 }).end();
      else res.writeHead(status, { 'retry-after': '3', 'content-type': 'text/html' }).end('<html>refused</html>');
    });
    expect(await fastGet(server.url)).toMatchObject({
      status: 403,
      contentLength: undefined,
      headers: { 'retry-after': '3' },
    });
    status = 503;
    expect(await fastGet(server.url)).toMatchObject({ status: 503 });
    status = 302;
    expect(await fastGet(server.url)).toBeUndefined();
    status = 200;
    expect(await fastGet(server.url)).toBeUndefined();
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    try {
      expect(await fastGet(server.url)).toBeUndefined();
    } finally {
      delete process.env.HTTP_PROXY;
    }
    expect(server.requests).toHaveLength(4); // nothing sent with a proxy configured
  });

  it('fails a body cut short with ERR_FAST_GET_TRUNCATED', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': BODY.length });
      res.write(BODY.subarray(0, 100_000), () => res.destroy());
    });
    const res = (await fastGet(server.url))!;
    const sink = collector(res);
    const error = await res.readBody(sink).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FastGetError);
    expect(error).toMatchObject({ code: 'ERR_FAST_GET_TRUNCATED' });
    expect(sink.bytes().length).toBe(100_000);
  });

  it('refuses a response head over the limit with a clear error', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(200, { 'x-huge': 'a'.repeat(80_000), 'content-length': 1 }).end('x'),
    );
    await expect(fastGet(server.url)).rejects.toMatchObject({
      code: 'ERR_FAST_GET_HEADERS_TOO_LARGE',
      message: /response head .* larger than 65536 bytes/,
    });
  });

  it('is cancelled by its signal, before the head and in the body', async () => {
    const server = await serve((req, res) => {
      if (req.url!.includes('stall-head')) return; // never answers
      res.writeHead(200, { 'content-length': BODY.length });
      res.write(BODY.subarray(0, 1000)); // then stalls
    });
    const early = new AbortController();
    const head = fastGet(server.url.replace('out.glb', 'stall-head'), { signal: early.signal });
    setTimeout(() => early.abort(), 50);
    await expect(head).rejects.toMatchObject({ name: 'AbortError' });

    const late = new AbortController();
    const res = (await fastGet(server.url, { signal: late.signal }))!;
    const body = res.readBody(collector(res));
    await delay(50);
    late.abort();
    await expect(body).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('times out a body that stops coming', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 10 });
      res.write('12345');
    });
    const res = (await fastGet(server.url, { bodyTimeoutMs: 100 }))!;
    await expect(res.readBody(collector(res))).rejects.toMatchObject({ code: 'ETIMEDOUT' });
  });

  it('reads over TLS (tls.connect honours onread), checking the certificate', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'asset-studio-tls-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      context.skip('openssl is not available to make a self-signed certificate');
      return;
    }
    const cert = readFileSync(join(dir, 'cert.pem'));
    const port = await listen(createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, ranged));
    const url = `https://localhost:${port}/files/out.glb`;

    await expect(fastGet(url)).rejects.toMatchObject({ code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY/) }); // default CAs only
    const res = (await fastGet(url, { ca: cert }))!;
    expect(res).toMatchObject({ status: 200, contentLength: BODY.length });
    const sink = collector(res, 50_000, 3); // pauses: TLS may hand over what it decrypted already
    await res.readBody(sink);
    expect(sha256(sink.bytes())).toBe(sha256(BODY));
  });
});

describe('fast path in the download cache', () => {
  function makeCache(): { cache: DownloadCache; store: ReturnType<typeof openDatabase> } {
    const dir = mkdtempSync(join(tmpdir(), 'asset-studio-fast-'));
    const store = openDatabase(join(dir, 'asset-studio.db'));
    const cache = new DownloadCache({
      store,
      dir: join(dir, 'cache'),
      retry: { maxAttempts: 2, baseMs: 1, maxMs: 2 },
      checkpointBytes: 1 << 20,
    });
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanup.push(() => store.close());
    cleanup.push(() => cache.close());
    return { cache, store };
  }

  it('downloads a chunked answer through undici, and keeps using undici for that origin', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { etag: '"v1"' }); // no Content-Length: chunked
      res.end(BODY);
    });
    const { cache } = makeCache();
    const path = await cache.fetchOutput({ sessionId: 'SESSION_c', kind: 'glb', url: server.url });
    expect(sha256(readFileSync(path))).toBe(sha256(BODY));
    expect(server.requests).toHaveLength(2); // the fast try, then undici
    await cache.fetchOutput({ sessionId: 'SESSION_c', kind: 'obj', url: server.url.replace('out.glb', 'other.obj') });
    expect(server.requests).toHaveLength(3);
  });

  it('keeps the bytes of a cut body for the resume, which then completes with Range', async () => {
    let cut = true;
    const server = await serve((req, res) => {
      if (!cut) return ranged(req, res);
      res.writeHead(200, { etag: '"v1"', 'content-length': BODY.length });
      res.write(BODY.subarray(0, 2 << 20), () => res.destroy());
    });
    const { cache, store } = makeCache();
    const request = { sessionId: 'SESSION_t', kind: 'glb', url: server.url };
    const error = await cache.fetchOutput(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({
      reason: 'network',
      message: expect.stringMatching(/after 2 attempts: the connection ended after \d+ of \d+ bytes .*MiB are kept/),
    });
    expect((error as DownloadError).bytesKept).toBeGreaterThanOrEqual(1 << 20);
    expect(store.cache.get(request)).toMatchObject({ state: 'failed' });

    cut = false;
    const path = await cache.fetchOutput(request);
    expect(sha256(readFileSync(path))).toBe(sha256(BODY));
    expect(server.requests.at(-1)!.headers.range).toMatch(/^bytes=\d+-$/);
  });

  it('says clearly when the answer has an oversized head', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(200, { 'x-huge': 'a'.repeat(80_000), 'content-length': 1 }).end('x'),
    );
    const { cache } = makeCache();
    await expect(cache.fetchOutput({ sessionId: 'SESSION_h', kind: 'glb', url: server.url })).rejects.toMatchObject({
      reason: 'http',
      message: expect.stringMatching(/head larger than 64 KiB/),
    });
  });
});
