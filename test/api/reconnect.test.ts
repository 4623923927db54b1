// The client's address stops answering (the process running the embedded engine ended, or is stopped and
// silent): `reconnect` finds the address in use now, and the call is sent there once (a create only if it was
// never sent); without another address the error stays the user's.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, type ServiceAddress } from '../../main/api/client.ts';
import { NetworkError, TimeoutError } from '../../main/api/errors.ts';
import { KEY, startTestEngine, type TestEngine } from '../engine/helpers.ts';

let engine: TestEngine;
let dead: string;

beforeAll(async () => {
  engine = await startTestEngine();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dead = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise((resolve) => server.close(resolve));
});

afterAll(() => engine.dispose());

function clientOf(reconnect?: (failed: ServiceAddress) => Promise<ServiceAddress | undefined>): ServiceClient {
  return new ServiceClient({
    baseUrl: dead,
    legacyBaseUrl: dead,
    apiKey: KEY,
    retry: { maxAttempts: 1 },
    ...(reconnect && { reconnect }),
  });
}

describe('re-resolving the address when it stops answering', () => {
  it('reads and creates go to the address found again; concurrent failures share one re-resolution', async () => {
    const asked: ServiceAddress[] = [];
    const client = clientOf(async (failed) => {
      asked.push(failed);
      return { baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl };
    });
    try {
      const [a, b] = await Promise.all([client.listImageTo3d({ page: 1 }), client.listImageTo3d({ page: 1 })]);
      expect(a.totalResults).toBe(b.totalResults);
      expect(asked).toEqual([{ baseUrl: dead, legacyBaseUrl: dead }]);
      expect(client.baseUrl).toBe(engine.url);
    } finally {
      await client.close();
    }
    // A create refused (never sent) is sent again too.
    const fresh = clientOf(async () => ({ baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl }));
    try {
      const made = await fresh.createTextToImage({ prompt: 'a chair' });
      expect(made.session_code).toMatch(/^SESSION_/);
    } finally {
      await fresh.close();
    }
  });

  it('without another address (or none configured) the network error is thrown as it was', async () => {
    for (const client of [clientOf(async () => undefined), clientOf(async () => ({ baseUrl: dead })), clientOf()]) {
      try {
        const error = await client.listImageTo3d({ page: 1 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect((error as NetworkError).networkCode).toBe('ECONNREFUSED');
      } finally {
        await client.close();
      }
    }
  });

  it('a silent address (it accepts connections and never answers, as a stopped process): a read goes to the one found again, a create is not sent twice', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const silent = createServer((socket) => sockets.add(socket)); // accepted, never answered
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const asked: ServiceAddress[] = [];
    const silentClient = () =>
      new ServiceClient({
        baseUrl: url,
        legacyBaseUrl: url,
        apiKey: KEY,
        retry: { maxAttempts: 1 },
        headersTimeoutMs: 300, // the time limit of an answer: a setting of the test, not a measure
        reconnect: async (failed) => {
          asked.push(failed);
          return { baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl };
        },
      });
    try {
      const client = silentClient();
      try {
        expect((await client.listImageTo3d({ page: 1 })).totalResults).toBeTypeOf('number');
        expect(asked).toEqual([{ baseUrl: url, legacyBaseUrl: url }]);
        expect(client.baseUrl).toBe(engine.url);
      } finally {
        await client.close();
      }
      // A create sent and never answered may have been acted on: its timeout is the user's, not sent again.
      const creating = silentClient();
      try {
        const error = await creating.createTextToImage({ prompt: 'a chair' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TimeoutError);
        expect(asked).toHaveLength(1);
        expect(creating.baseUrl).toBe(url);
      } finally {
        await creating.close();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
