// The web host keeps its port (and the token that goes with it) between launches on one data folder, so a
// tab left open reconnects with the token in its sessionStorage; when that port is taken, it takes another and a new token.
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { savedAddressPath } from '../../main/host/saved-address.ts';
import { startWebHost } from '../../main/host/web-host.ts';
import { raw, tempDir } from './helpers.ts';

const data = tempDir('saved-address');
afterAll(() => data.remove());

const start = (dataDir: string, port?: number) =>
  startWebHost({
    dataDir,
    rendererDir: join(data.path, 'none'),
    serviceOptions: { engineSpeed: 500 },
    ...(port !== undefined && { port }),
  });

/** A command sent as an open tab sends it: the token of its sessionStorage, the host's own Host header. */
const callWithToken = (port: number, token: string) =>
  raw(port, {
    method: 'POST',
    path: '/api/call/jobs.list',
    body: '{}',
    headers: {
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
  });

/** Whether the events socket opens with that token (the page's reconnect). */
const socketOpens = (port: number, token: string) =>
  new Promise<boolean>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${WEB_PROTOCOL.events}`, {
      headers: { origin: `http://127.0.0.1:${port}`, authorization: `Bearer ${token}` },
    });
    ws.once('open', () => (ws.close(), resolve(true)));
    ws.once('unexpected-response', () => resolve(false));
    ws.once('error', () => resolve(false));
  });

describe('the web host port between launches', () => {
  it('is the same at the next launch, with the same token: a tab left open is served and its events socket reconnects', async () => {
    const dataDir = join(data.path, 'same');
    const first = await start(dataDir);
    const { port, token } = first;
    await first.close();
    expect(statSync(savedAddressPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(savedAddressPath(dataDir), 'utf8'))).toEqual({ port, token });

    const second = await start(dataDir);
    try {
      expect(second.port).toBe(port);
      expect(second.token).toBe(token);
      expect((await callWithToken(port, token)).status).toBe(200);
      expect(await socketOpens(port, token)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('moves to a free port with a new token when the saved one is taken, and keeps that one next', async () => {
    const dataDir = join(data.path, 'taken');
    const first = await start(dataDir);
    const { port, token } = first;
    await first.close();
    const squatter = createServer();
    await new Promise<void>((ok) => squatter.listen(port, '127.0.0.1', ok));
    try {
      const second = await start(dataDir);
      try {
        expect(second.port).not.toBe(port);
        expect(second.token).not.toBe(token);
        expect(JSON.parse(readFileSync(savedAddressPath(dataDir), 'utf8'))).toEqual({
          port: second.port,
          token: second.token,
        });
        expect((await callWithToken(second.port, token)).status).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      await new Promise((ok) => squatter.close(ok));
    }
  });

  it('an explicit port is used as it is and not saved', async () => {
    const dataDir = join(data.path, 'explicit');
    const host = await start(dataDir, 0);
    await host.close();
    expect(() => statSync(savedAddressPath(dataDir))).toThrow();
  });
});
