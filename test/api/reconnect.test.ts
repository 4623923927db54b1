// The client's address stops answering (the process running the embedded engine ended): `reconnect` finds the
// address in use now, and the call is sent there once; without another address the error stays the user's.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, type ServiceAddress } from '../../main/api/client.ts';
import { NetworkError } from '../../main/api/errors.ts';
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
});
