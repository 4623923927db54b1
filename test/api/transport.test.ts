import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { FormData } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backoffDelay, MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../main/api/backoff.ts';
import {
  ApiError,
  CancelledError,
  NetworkError,
  ProtocolError,
  ServiceResponseError,
  TimeoutError,
} from '../../main/api/errors.ts';
import { createRedactingLogger, redactSecrets, type Logger } from '../../main/api/redact.ts';
import { HttpTransport, type TransportOptions } from '../../main/api/transport.ts';

const KEY = 'sk_live_TESTKEY_0123456789abcdefghij';

type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => void;
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const json =
  (status: number, value: unknown, headers: Record<string, string> = {}): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
const text =
  (status: number, body: string): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(body);
  };
const truncated: Behaviour = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
  res.write('{"data": ');
  setTimeout(() => res.socket?.destroy(), 20);
};
const resetBeforeResponse: Behaviour = (req) => req.socket.destroy();
const neverAnswer: Behaviour = () => {};

let server: Server;
let baseUrl: string;
let queue: Behaviour[];
let fallback: Behaviour;
let received: Received[];
let logLines: string[];
let sleeps: number[];
let transport: HttpTransport | undefined;

beforeEach(async () => {
  queue = [];
  fallback = text(599, 'no behaviour queued');
  received = [];
  logLines = [];
  sleeps = [];
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      (queue.shift() ?? fallback)(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await transport?.close();
  transport = undefined;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  // Every log line of every case, retries included, is free of the key.
  for (const line of logLines) expect(line).not.toContain(KEY);
});

function makeTransport(overrides: Partial<TransportOptions> = {}): HttpTransport {
  const capture = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    logLines.push(`${level} ${msg} ${JSON.stringify(fields)}`);
  };
  const logger: Logger = {
    debug: capture('debug'),
    info: capture('info'),
    warn: capture('warn'),
    error: capture('error'),
  };
  transport = new HttpTransport({
    apiKey: KEY,
    logger,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return transport;
}

/** Awaits the rejection, checks it is an ApiError that does not leak the key anywhere, and returns it. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => expect.fail('expected the request to fail'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  const apiErr = err as ApiError;
  for (const rendering of [
    apiErr.message,
    apiErr.stack,
    String(apiErr),
    JSON.stringify(apiErr),
    inspect(apiErr, { depth: 10 }),
  ]) {
    expect(rendering).not.toContain(KEY);
  }
  expect(apiErr.cause).toBeUndefined();
  return apiErr;
}

const get = (t: HttpTransport, extra: Partial<Parameters<HttpTransport['request']>[0]> = {}) =>
  t.request({ method: 'GET', url: `${baseUrl}/tti-sessions/SESSION_1`, route: '/tti-sessions/:code', ...extra });

describe('HttpTransport', () => {
  it('returns parsed JSON and sends the key, accept header and query', async () => {
    queue.push(json(200, { error: '', message: 'Retrieved', data: { ok: true } }, { 'x-request-id': 'r1' }));
    const res = await get(makeTransport(), { query: { page: '2', skip: undefined } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: '', message: 'Retrieved', data: { ok: true } });
    expect(res.headers['x-request-id']).toBe('r1');
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['x-api-key']).toBe(KEY);
    expect(received[0]!.headers.accept).toBe('application/json');
    expect(received[0]!.url).toBe('/tti-sessions/SESSION_1?page=2');
  });

  it('sends JSON bodies with a JSON content type', async () => {
    queue.push(json(201, { data: { session_code: 'SESSION_2' } }));
    const res = await makeTransport().request({
      method: 'POST',
      url: `${baseUrl}/tti-sessions`,
      route: '/tti-sessions',
      json: { prompt: 'a chair' },
      expectedStatus: [201],
    });
    expect(res.status).toBe(201);
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received[0]!.body)).toEqual({ prompt: 'a chair' });
  });

  it('sends multipart form data', async () => {
    queue.push(json(200, { data: {} }));
    const form = new FormData();
    form.append('file', new Blob(['mesh bytes']), 'mesh.glb');
    await makeTransport().request({ method: 'POST', url: `${baseUrl}/upload`, route: '/upload', multipart: form });
    expect(received[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(received[0]!.body).toContain('mesh bytes');
  });

  it('accepts an empty 204 and rejects an empty 200', async () => {
    queue.push(
      (_req, res) => res.writeHead(204).end(),
      (_req, res) => res.writeHead(200).end(),
    );
    const t = makeTransport();
    expect((await get(t)).body).toBeUndefined();
    const err = await failure(get(t));
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err.message).toMatch(/empty body/);
  });

  it('turns a 404 envelope into a ServiceResponseError without retrying', async () => {
    queue.push(json(404, { error: 'not_found', message: 'Session not found', statusCode: 404 }));
    const err = await failure(get(makeTransport()));
    expect(err).toBeInstanceOf(ServiceResponseError);
    expect(err).toMatchObject({
      status: 404,
      serviceError: 'not_found',
      serviceMessage: 'Session not found',
      retryable: false,
      exitCode: 3,
    });
    expect(err.message).toMatch(/^GET \/tti-sessions\/:code: .*HTTP 404.*Session not found.*Check/);
    expect(received).toHaveLength(1);
  });

  it('retries a GET after a 500 and succeeds', async () => {
    queue.push(json(500, { error: 'internal', message: 'oops' }), json(200, { data: 1 }));
    const res = await get(makeTransport());
    expect(res.body).toEqual({ data: 1 });
    expect(received).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(logLines.some((l) => l.startsWith('warn Retrying'))).toBe(true);
  });

  it('never retries a non-idempotent POST on 503', async () => {
    fallback = json(503, { error: 'unavailable', message: 'try later' });
    const err = await failure(
      makeTransport().request({
        method: 'POST',
        url: `${baseUrl}/tti-sessions`,
        route: '/tti-sessions',
        json: {},
        idempotent: false,
      }),
    );
    expect(err).toMatchObject({ status: 503, retryable: false });
    expect(received).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it('waits at least Retry-After before retrying a 429', async () => {
    queue.push(
      json(429, { error: 'rate_limited', message: 'slow down' }, { 'retry-after': '1' }),
      json(200, { data: 2 }),
    );
    const res = await get(makeTransport());
    expect(res.body).toEqual({ data: 2 });
    expect(received).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(1000);
  });

  it('reports an HTML 502 page as a body that is not JSON, after retrying', async () => {
    fallback = text(502, `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(1000)}</body></html>`);
    const err = await failure(get(makeTransport()));
    expect(err).toBeInstanceOf(ServiceResponseError);
    expect(err).toMatchObject({ status: 502, retryable: true });
    expect(err.message).toMatch(/not JSON/);
    expect(err.message).toContain('502 Bad Gateway');
    expect(err.message.length).toBeLessThan(500);
    expect(received).toHaveLength(4);
  });

  it('reports a 200 with an HTML body as a ProtocolError', async () => {
    queue.push(text(200, '<html>captive portal</html>'));
    const err = await failure(get(makeTransport()));
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ problem: 'not-json', exitCode: 3, retryable: false });
    expect(err.message).toMatch(/not JSON: "<html>captive portal<\/html>"/);
  });

  it('refuses an answer over 32 MiB, declared or sent, without holding it in memory', async () => {
    queue.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 2 ** 30) });
      res.write('{"data": "');
    });
    const declared = await failure(get(makeTransport()));
    expect(declared).toBeInstanceOf(ProtocolError);
    expect(declared.message).toContain('an answer of more than 32 MiB, which the app does not read');
    queue.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length given
      const chunk = Buffer.alloc(2 ** 20, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 40 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      res.on('error', () => undefined);
      more();
    });
    const sent = await failure(get(makeTransport()));
    expect(sent.message).toContain('an answer of more than 32 MiB');
  });

  it('retries a truncated body on GET', async () => {
    queue.push(truncated, json(200, { data: 3 }));
    expect((await get(makeTransport())).body).toEqual({ data: 3 });
    expect(received).toHaveLength(2);
  });

  it('gives a clear error when the body keeps being truncated', async () => {
    fallback = truncated;
    const err = await failure(get(makeTransport()));
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ problem: 'truncated', retryable: true, exitCode: 3 });
    expect(err.message).toMatch(/cut off/);
    expect(received).toHaveLength(4);
  });

  it('turns a connection reset before the response into a NetworkError after retries', async () => {
    fallback = resetBeforeResponse;
    const err = await failure(get(makeTransport()));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ exitCode: 5 });
    expect((err as NetworkError).networkCode).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
    expect(received).toHaveLength(4);
  });

  it('times out waiting for headers', async () => {
    fallback = neverAnswer;
    const err = await failure(get(makeTransport({ headersTimeoutMs: 200, retry: { maxAttempts: 2 } })));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ phase: 'headers', exitCode: 4, retryable: true });
    expect(err.message).toMatch(/did not answer within 200 ms \(headers timeout\)/);
    expect(received).toHaveLength(2);
  });

  it('cancels a request whose response is in progress', async () => {
    const controller = new AbortController();
    fallback = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": ');
      setImmediate(() => controller.abort());
    };
    const err = await failure(get(makeTransport(), { signal: controller.signal }));
    expect(err).toBeInstanceOf(CancelledError);
    expect(err).toMatchObject({ exitCode: 1, retryable: false });
    expect(received).toHaveLength(1);
  });

  it('cancels during the backoff wait', async () => {
    const controller = new AbortController();
    fallback = json(503, { error: 'unavailable', message: 'busy' });
    const t = makeTransport({
      sleep: (_ms, signal) => {
        controller.abort();
        return Promise.reject(signal?.reason);
      },
    });
    const err = await failure(get(t, { signal: controller.signal }));
    expect(err).toBeInstanceOf(CancelledError);
    expect(received).toHaveLength(1);
  });

  it('reports a refused connection as a NetworkError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await failure(
      makeTransport().request({ method: 'GET', url: `http://127.0.0.1:${port}/x`, route: '/x' }),
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: 'network', networkCode: 'ECONNREFUSED', exitCode: 5, retryable: true });
    expect(err.message).toMatch(/refused the connection/);
    expect(sleeps).toHaveLength(3);
  });

  it('redacts the key when the service echoes it back', async () => {
    const encoded = encodeURIComponent(`${KEY}+/`);
    const t = makeTransport({ apiKey: `${KEY}+/` });
    queue.push(json(401, { error: 'unauthorized', message: `API key ${KEY}+/ (${encoded}) is not valid` }));
    const envelopeErr = await failure(get(t));
    expect(envelopeErr.serviceMessage).toBe('API key [redacted] ([redacted]) is not valid');
    expect(envelopeErr.message).toMatch(/API key/);

    fallback = text(502, `<html>upstream rejected key=${KEY}+/</html>`);
    const htmlErr = await failure(get(t));
    expect(htmlErr.message).toContain('key=[redacted]');
    expect(logLines.length).toBeGreaterThan(0);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially under full jitter and stops at maxMs', () => {
    const top = { baseMs: 300, maxMs: 8000, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => backoffDelay(a, top))).toEqual([299, 599, 1199, 2399, 4799, 7999, 7999]);
    expect(backoffDelay(3, { baseMs: 300, maxMs: 8000, random: () => 0 })).toBe(0);
    const d = backoffDelay(2, { baseMs: 300, maxMs: 8000 });
    expect(d).toBeGreaterThanOrEqual(0);
    expect(d).toBeLessThan(600);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 10, 21, 10, 0, 0);
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter([' 30 '], now)).toBe(30_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });
  it('reads an HTTP-date', () => {
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('caps long waits and ignores missing or unreadable values', () => {
    expect(parseRetryAfter('86400', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('redaction', () => {
  it('replaces each secret and its URL-encoded form', () => {
    expect(redactSecrets('k=a+b/c and a%2Bb%2Fc', ['a+b/c'])).toBe('k=[redacted] and [redacted]');
    expect(redactSecrets('nothing here', ['', 'zzz'])).toBe('nothing here');
  });

  it('redacts logger messages and nested fields', () => {
    const lines: unknown[] = [];
    const inner: Logger = {
      debug: () => {},
      info: (msg, fields) => lines.push(msg, fields),
      warn: () => {},
      error: () => {},
    };
    createRedactingLogger(inner, () => [KEY]).info(`key ${KEY}`, {
      nested: { list: [KEY, 1] },
      err: new Error(`boom ${KEY}`),
    });
    expect(lines).toEqual(['key [redacted]', { nested: { list: ['[redacted]', 1] }, err: 'Error: boom [redacted]' }]);
  });
});
