// Responses the engine never sends: a service answering with wrong types or an error inside a 200.
// A plain node:http server plays the service here, since the engine only answers correctly.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { ProtocolError, ServiceResponseError } from '../../main/api/errors.ts';

let server: Server;
let client: ServiceClient;
let next: unknown;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(next));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new ServiceClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: 'k_0123456789',
  });
});

afterAll(async () => {
  await client.close();
  server.close();
});

const T = '2026-11-21T10:00:00.000Z';

describe('response checks', () => {
  it('names the endpoint and the field whose type is wrong', async () => {
    next = {
      error: '',
      message: 'Retrieved',
      statusCode: 200,
      data: { _id: 'a', session_code: 'SESSION_t', prompt: 'p', status: 42, created_at: T, updated_at: T },
    };
    const error = await client.getTextToImage('SESSION_t').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(/^GET \/tti-sessions\/:session_code: .*data\.status/);
    expect((error as Error).message).toMatch(/Update Asset Studio or report the problem/);
  });

  it('keeps unknown fields and unknown statuses', async () => {
    next = {
      error: '',
      message: 'Retrieved',
      statusCode: 200,
      data: {
        _id: 'a',
        session_code: 'SESSION_t',
        prompt: 'p',
        status: 'dreaming',
        created_at: T,
        updated_at: T,
        future: { x: 1 },
      },
    };
    const s = await client.getTextToImage('SESSION_t');
    expect(s.status).toBe('dreaming');
    expect((s as Record<string, unknown>).future).toEqual({ x: 1 });
    expect(s.image_url).toBe('');
  });

  it('an error in the envelope of a 200 is a service error', async () => {
    next = { error: 'Quota', message: 'No credits left', statusCode: 200, data: {} };
    const error = await client.listImageTo3d().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceResponseError);
    expect((error as ServiceResponseError).serviceMessage).toBe('No credits left');
  });

  it('a /v3 object is read bare, without an envelope', async () => {
    next = {
      _id: 'SESSION_v',
      status: 'complete',
      type: 'retopology',
      input: {},
      output: { meshes: [] },
      created_at: T,
      updated_at: T,
    };
    expect((await client.getV3Session('SESSION_v')).status).toBe('complete');
  });
});
