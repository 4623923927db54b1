// Issue #23 item 4: an input URL served badly never crashes the engine. A raw node:net server here (no HTTP
// library between it and the socket) answers with `Connection: close` and ends the socket at once (FIN) after
// writing the whole answer, before the engine has read the body (Node's built-in fetch crashed the process
// there: `assert(!this.paused)` in its bundled undici); a body cut short; a body that never ends; a slow drip;
// a declared Content-Length of 2 GiB. Each session ends failed (or complete, when the answer was whole) with a
// reason naming the limit where one applies, the engine closes the connections it gave up on, and it keeps
// serving other requests.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../main/engine/outputs/index.ts';
import { onRequestHead } from '../helpers.ts';
import { endedImageTo3d, KEY, pollUntil, startTestEngine, type TestEngine } from './helpers.ts';

const PNG = encodePng(8, 8, new Uint8Array(8 * 8 * 4).fill(120));
const TIME_LIMIT_MS = 1500;

/** What the raw server writes for each path; `socket` is the connection, `head` the status line and headers. */
const ANSWERS: Record<string, (socket: Socket) => void> = {
  // The whole answer, then FIN at once.
  '/close.png': (s) => {
    s.write(head('200 OK', { 'content-type': 'image/png', 'content-length': PNG.length, connection: 'close' }));
    s.end(PNG);
  },
  // An error with a body the engine does not want, then FIN at once.
  '/gone.png': (s) => {
    const body = Buffer.from('<html>'.padEnd(50_000, 'x'));
    s.write(head('404 Not Found', { 'content-type': 'text/html', 'content-length': body.length, connection: 'close' }));
    s.end(body);
  },
  // A large answer (the PNG padded to 16 MiB), then FIN at once: the socket ends while the body waits to be read.
  '/big-close.png': (s) => {
    const body = Buffer.concat([PNG, Buffer.alloc(16 * 2 ** 20)]);
    s.write(head('200 OK', { 'content-type': 'image/png', 'content-length': body.length, connection: 'close' }));
    s.end(body);
  },
  // A large error body the engine does not read, then FIN at once.
  '/big-gone.png': (s) => {
    const body = Buffer.alloc(16 * 2 ** 20, 'x');
    s.write(head('410 Gone', { 'content-type': 'text/plain', 'content-length': body.length, connection: 'close' }));
    s.end(body);
  },
  // A redirect with a body, then FIN at once: the engine goes on to the Location.
  '/moved.png': (s) => {
    s.write(head('302 Found', { location: '/close.png', 'content-length': 5, connection: 'close' }));
    s.end('moved');
  },
  // Fewer bytes than Content-Length says, then FIN.
  '/short.png': (s) => {
    s.write(head('200 OK', { 'content-type': 'image/png', 'content-length': 10_000, connection: 'close' }));
    s.end(PNG);
  },
  // A body that never ends (no length: it would end with the connection, which stays open).
  '/endless.png': (s) => {
    s.write(head('200 OK', { 'content-type': 'image/png', connection: 'close' }));
    s.write(PNG.subarray(0, 16));
  },
  // A byte every 50 ms, well under the idle limit but far over the time limit.
  '/drip.png': (s) => {
    s.write(head('200 OK', { 'content-type': 'image/png', 'content-length': 1_000_000 }));
    const timer = setInterval(() => s.write('x'), 50);
    s.on('close', () => clearInterval(timer));
    s.on('error', () => clearInterval(timer));
  },
  // 2 GiB declared, a few bytes sent, then nothing.
  '/huge.png': (s) => {
    s.write(head('200 OK', { 'content-type': 'image/png', 'content-length': 2 * 2 ** 30 }));
    s.write(PNG);
  },
};

function head(status: string, headers: Record<string, string | number>): string {
  return `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

interface RawServer {
  url(path: string): string;
  /** Connections to this path still open. */
  open(path: string): number;
  close(): Promise<void>;
}

async function startRawServer(): Promise<RawServer> {
  const open = new Map<string, Set<Socket>>();
  const server: Server = createServer((socket) =>
    onRequestHead(socket, (path) => {
      const sockets = open.get(path) ?? new Set();
      open.set(path, sockets);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      const answer = ANSWERS[path];
      if (answer) answer(socket);
      else socket.end(head('404 Not Found', { 'content-length': 0, connection: 'close' }));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    open: (path) => open.get(path)?.size ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const sockets of open.values()) for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

let raw: RawServer;
let engine: TestEngine;
beforeAll(async () => {
  raw = await startRawServer();
  engine = await startTestEngine({ inputs: { timeoutMs: TIME_LIMIT_MS } }); // the default size caps: 1 GiB, 50 MiB for an image
});
afterAll(async () => {
  await engine?.dispose();
  await raw?.close();
});

/** An image-to-3D session of `image_url`, followed until it ends (complete or failed). */
const imageTo3d = async (image_url: string): Promise<any> =>
  (await endedImageTo3d(engine, { image_url, resolution: 'low_poly' })).done;

/** The engine still answers: its list, and a session of a good input to its end. */
async function stillServing(): Promise<void> {
  const list = await fetch(`${engine.url}/image-to-3d-sessions?limit=1`, { headers: { 'x-api-key': KEY } });
  expect(list.status).toBe(200);
  await list.body?.cancel();
  expect((await imageTo3d(raw.url('/close.png'))).session_status).toBe('complete');
}

describe('an input served badly', () => {
  it('Connection: close and FIN at once, before the body is read: a whole answer is read, an error fails the session', async () => {
    expect((await imageTo3d(raw.url('/close.png'))).session_status).toBe('complete');
    expect((await imageTo3d(raw.url('/moved.png'))).session_status).toBe('complete');
    const gone = await imageTo3d(raw.url('/gone.png'));
    expect(gone.session_status).toBe('failed');
    expect(gone.error).toBe(
      `The input image ${raw.url('/gone.png')} could not be read: ${new URL(raw.url('/')).host} answered 404 Not Found.`,
    );
    const big = await imageTo3d(raw.url('/big-close.png'));
    expect(['complete', 'failed']).toContain(big.session_status); // read whole; the padding may or may not pass
    const bigGone = await imageTo3d(raw.url('/big-gone.png'));
    expect(bigGone.error).toContain('answered 410 Gone');
    const short = await imageTo3d(raw.url('/short.png'));
    expect(short.session_status).toBe('failed');
    expect(short.error).toMatch(/could not be read: .*(closed the connection|fewer bytes)/);
    await stillServing();
  });

  it('a body that never ends fails at the time limit, and the connection is closed', async () => {
    const endless = await imageTo3d(raw.url('/endless.png'));
    expect(endless.session_status).toBe('failed');
    expect(endless.error).toMatch(/not read within 1\.5 s|stopped sending for 1\.5 s/);
    await pollUntil(
      async () => raw.open('/endless.png'),
      (n) => n === 0,
    );
    await stillServing();
  });

  it('a slow drip fails at the time limit, naming it', async () => {
    const drip = await imageTo3d(raw.url('/drip.png'));
    expect(drip.session_status).toBe('failed');
    expect(drip.error).toContain("it was not read within 1.5 s (the engine's time limit for an input)");
    await pollUntil(
      async () => raw.open('/drip.png'),
      (n) => n === 0,
    );
    await stillServing();
  });

  it('a declared 2 GiB fails at once, naming the image size cap, and the connection is closed', async () => {
    const started = Date.now();
    const huge = await imageTo3d(raw.url('/huge.png'));
    expect(huge.session_status).toBe('failed');
    expect(huge.error).toBe(
      `The input image ${raw.url('/huge.png')} could not be read: it is 2 GiB, more than the 50 MiB the engine reads for an image.`,
    );
    expect(Date.now() - started).toBeLessThan(TIME_LIMIT_MS); // refused on its header, not at the time limit
    await pollUntil(
      async () => raw.open('/huge.png'),
      (n) => n === 0,
    );
    await stillServing();
  });
});
