// Helpers of the host tests: temp folders, a bridge over the embedded engine, raw HTTP requests (fetch
// cannot set Host), and collecting events.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventName } from '../../shared/bridge/contract.ts';
import type { BridgeService } from '../../main/host/bridge-service.ts';

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP request with any headers (Host included). */
export function raw(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A bridge command posted to a web host's /api/call with its token, as the app's pages send it (the raw answer). */
export function callCommand(
  host: { port: number; token: string },
  command: string,
  input: unknown,
): Promise<RawResponse> {
  return raw(host.port, {
    method: 'POST',
    path: `/api/call/${command}`,
    headers: {
      host: `127.0.0.1:${host.port}`,
      authorization: `Bearer ${host.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(input),
  });
}

/** Every event of a bridge, in order. */
export function recordEvents(bridge: BridgeService): {
  events: { event: EventName; payload: unknown }[];
  stop(): void;
} {
  const events: { event: EventName; payload: unknown }[] = [];
  const stop = bridge.onAny((event, payload) => events.push({ event, payload }));
  return { events, stop };
}

/** The first value `check` gives (synchronously or not) other than undefined, polled until `timeoutMs` is up. */
export async function until<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15_000,
  what = 'the condition',
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
