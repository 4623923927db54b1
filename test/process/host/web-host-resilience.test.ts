// Nothing one peer sends ends the web host: bad WebSocket frames, resets, malformed request targets and
// bodies cut off fail that one socket or request, and the host (a process of its own here, so that a
// crash shows as its exit) keeps serving everyone else.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WEB_PROTOCOL, type EventMessage } from '../../../shared/bridge/web-protocol.ts';
import { attachEventSocket } from '../../../main/host/events-socket.ts';
import { raw, tempDir, until } from '../../host/helpers.ts';

const data = tempDir('web-host-resilience');
let child: ChildProcess;
let stderr = '';
let port: number;
let token: string;
let hostHeader: string;
let authorization: string;

beforeAll(async () => {
  child = spawn(process.execPath, [new URL('../../host/web-host-process.ts', import.meta.url).pathname, data.path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`The web host process ended (${code}) before it listened: ${stderr}`)),
    );
  });
  ({ port, token } = JSON.parse(line) as { port: number; token: string });
  hostHeader = `127.0.0.1:${port}`;
  authorization = `Bearer ${token}`;
});

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  data.remove();
});

/** The host process is still running and still answers a command. */
/** A bridge command with an empty input, sent as the page sends it. */
function callHost(command: string) {
  return raw(port, {
    method: 'POST',
    path: `/api/call/${command}`,
    headers: { host: hostHeader, authorization, 'content-type': 'application/json' },
    body: '{}',
  });
}

async function expectServing(): Promise<void> {
  expect({ exitCode: child.exitCode, signal: child.signalCode }, `the host process ended: ${stderr}`).toEqual({
    exitCode: null,
    signal: null,
  });
  const res = await callHost('app.info');
  expect(res.status).toBe(200);
}

/** Sends bytes on a new connection and collects everything the host answers until it closes. */
function exchange(bytes: string | Buffer, options: { reset?: boolean } = {}): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      if (options.reset) socket.resetAndDestroy();
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

function upgradeRequest(target: string, headers: Record<string, string>): string {
  const lines = [
    `GET ${target} HTTP/1.1`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** An event socket opened by hand (valid token and Origin), to send frames no WebSocket client would. */
async function rawEventSocket(): Promise<{ socket: Socket; received: () => Buffer; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  let buffer = Buffer.alloc(0);
  socket.on('data', (c: Buffer) => (buffer = Buffer.concat([buffer, c])));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    upgradeRequest(WEB_PROTOCOL.events, { host: hostHeader, origin: `http://${hostHeader}`, authorization }),
  );
  const head = await until(
    () => {
      const end = buffer.indexOf('\r\n\r\n');
      return end < 0 ? undefined : end;
    },
    15_000,
    'the upgrade answer',
  );
  expect(buffer.subarray(0, head).toString()).toMatch(/^HTTP\/1\.1 101 /);
  const start = head + 4;
  return { socket, received: () => buffer.subarray(start), closed };
}

/** A client frame: masked as RFC 6455 requires unless `masked` is false. */
function frame(opcode: number, payload: Buffer, masked = true): Buffer {
  const length =
    payload.length < 126
      ? Buffer.from([payload.length])
      : Buffer.from([126, payload.length >> 8, payload.length & 0xff]);
  if (!masked) return Buffer.concat([Buffer.from([0x80 | opcode]), length, payload]);
  length[0]! |= 0x80;
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  return Buffer.concat([Buffer.from([0x80 | opcode]), length, mask, payload.map((b, i) => b ^ mask[i % 4]!)]);
}

/** A page's own event socket, through the real client: resolves with its first event. */
async function goodClient(): Promise<{ ws: WebSocket; next: (event: string) => Promise<EventMessage> }> {
  const ws = new WebSocket(`ws://${hostHeader}${WEB_PROTOCOL.events}`, {
    headers: { origin: `http://${hostHeader}`, authorization },
  });
  const messages: EventMessage[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as EventMessage));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, next: (event) => until(() => messages.find((m) => m.event === event), 15_000, `a ${event} event`) };
}

describe('the event socket', () => {
  it.each([
    ['a text frame over 1 KiB', frame(0x1, Buffer.alloc(2000, 0x61)), 1009],
    ['a text frame that is not UTF-8', frame(0x1, Buffer.from([0xff, 0xfe, 0xfd])), 1007],
    ['a frame with an unknown opcode', frame(0x3, Buffer.from('hi')), 1002],
    ['an unmasked frame', frame(0x1, Buffer.from('hi'), false), 1002],
  ])('closes the socket that sends %s, and keeps serving the others', async (_what, bytes, code) => {
    const page = await goodClient();
    const bad = await rawEventSocket();
    bad.socket.write(bytes);
    await bad.closed;
    const answer = bad.received();
    expect(answer[0]).toBe(0x88); // a close frame
    expect(answer.readUInt16BE(2)).toBe(code);
    await expectServing();
    // The other page still gets its events.
    const settings = await callHost('settings.get');
    expect(settings.status).toBe(200);
    await callHost('settings.update');
    expect((await page.next('settings')).payload).toMatchObject({ activeProfile: expect.any(String) });
    expect(page.ws.readyState).toBe(WebSocket.OPEN);
    page.ws.terminate();
  });

  it('survives peers that reset a refused upgrade, and refuses an upgrade whose target is not a URL (400)', async () => {
    for (let i = 0; i < 20; i++)
      await exchange(upgradeRequest(WEB_PROTOCOL.events, { host: hostHeader }), { reset: true });
    for (let i = 0; i < 20; i++)
      await exchange(upgradeRequest('/elsewhere', { host: hostHeader, authorization }), { reset: true });
    const answer = await exchange(
      upgradeRequest('http://[', { host: hostHeader, origin: `http://${hostHeader}`, authorization }),
    );
    expect(answer.toString()).toMatch(/^HTTP\/1\.1 400 /);
    await expectServing();
  });
});

describe('requests', () => {
  const post = (path: string, body: string, extra = '') =>
    `POST ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\n${extra}\r\n${body}`;

  it('answers a request target that is not a URL with 400', async () => {
    const answer = await exchange(
      `GET http://[ HTTP/1.1\r\nHost: ${hostHeader}\r\nAuthorization: ${authorization}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.toString()).toMatch(/^HTTP\/1\.1 400 /);
    await expectServing();
  });

  it('fails only the request whose body is cut off, bad JSON, or an upload reset mid-way', async () => {
    await exchange(post('/api/call/app.info', '{"a":', 'Content-Length: 100\r\n'), { reset: true });
    await exchange(
      post('/api/call/app.info', '{"a":', 'Transfer-Encoding: chunked\r\n').replace('{"a":', '5\r\n{"a":\r\n'),
      { reset: true },
    );
    const bad = await exchange(post('/api/call/app.info', '{nope', 'Content-Length: 5\r\nConnection: close\r\n'));
    expect(bad.toString()).toMatch(/^HTTP\/1\.1 400 [\s\S]*is not valid JSON/);
    const upload = `POST ${WEB_PROTOCOL.upload} HTTP/1.1\r\nHost: ${hostHeader}\r\nAuthorization: ${authorization}\r\nx-file-name: a.fbx\r\nContent-Length: 100000\r\n\r\n`;
    await exchange(upload + 'x'.repeat(5000), { reset: true });
    await expectServing();
  });
});

describe('a page that stops reading its events', () => {
  it('is dropped once its backlog passes the limit; the other pages keep theirs', async () => {
    const server = createServer();
    const bus = new EventEmitter();
    const events = attachEventSocket(
      server,
      { onAny: (listener) => (bus.on('*', listener), () => bus.off('*', listener)) },
      { path: '/events', allow: () => undefined, maxBufferedBytes: 2 ** 20 },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const at = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    try {
      const reader = new WebSocket(at);
      let read = 0;
      reader.on('message', () => read++);
      const stalled = new WebSocket(at);
      await Promise.all([reader, stalled].map((ws) => new Promise((resolve) => ws.once('open', resolve))));
      (stalled as unknown as { _socket: Socket })._socket.pause(); // reads nothing more
      const stalledClosed = new Promise((resolve) => stalled.once('close', resolve));
      const payload = 'x'.repeat(256 * 1024);
      let sent = 0;
      // Events until the stalled page is dropped (its kernel buffers fill first), at most 1 GiB of them.
      while (events.clients === 2 && sent < 4096) {
        bus.emit('*', 'notice', { level: 'info', message: payload });
        sent++;
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(events.clients).toBe(1);
      await until(() => (read === sent ? true : undefined), 30_000, 'the reading page to get every event');
      expect(reader.readyState).toBe(WebSocket.OPEN);
      reader.close();
      (stalled as unknown as { _socket: Socket })._socket.resume();
      await stalledClosed; // it reads again and finds its socket closed
    } finally {
      await events.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
