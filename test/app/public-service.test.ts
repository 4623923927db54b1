// The public service as the default (#24 item 4): a key saved with no address set sends the app's requests
// to the public service's documented addresses (the built-in profile "csm"), its base and its legacy address,
// with that key; so does the "csm" profile once its key is set. Two local servers stand in for the two
// addresses, through AppSession's publicService option (the one place the addresses can be replaced).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppSession } from '../../main/app/app-session.ts';
import { connectionView, resolveConnection } from '../../main/app/connection.ts';
import { createServices, type Services } from '../../main/app/services.ts';
import { writeKeyFile } from '../../main/config/key-file.ts';
import { PUBLIC_SERVICE, SERVICE_PROFILE } from '../../main/config/profiles.ts';
import { tempDir } from '../helpers.ts';
import { emptySessionList } from '../service-answers.ts';

interface Seen {
  server: 'base' | 'legacy';
  method: string;
  path: string;
  key: string | undefined;
}

const seen: Seen[] = [];
const servers: Server[] = [];
let addresses = { baseUrl: '', legacyBaseUrl: '' };

/** Answers every request with an empty image-to-3D list (a valid answer for the health check too). */
function standIn(name: Seen['server']): Promise<string> {
  const server = createServer((req: IncomingMessage, res) => {
    seen.push({ server: name, method: req.method ?? '', path: req.url ?? '', key: req.headers['x-api-key'] as string });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(emptySessionList({ page: 1, credits: 100 }));
    });
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  addresses = { baseUrl: await standIn('base'), legacyBaseUrl: await standIn('legacy') };
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

function openSession(dataDir: string): Promise<AppSession> {
  return AppSession.open({
    dataDir,
    publicService: addresses,
    openServices: (c) => createServices(c, { notice: () => {}, healthIntervalMs: 60_000 }),
    attach: () => () => {},
    stopWork: () => {},
    webhooksFailed: () => {},
  });
}

/** One request to each address: the image-to-3D list (base) and the older create (legacy, whose answer is refused: only where it went counts). */
async function callBoth(services: Services): Promise<void> {
  await services.client.call('listImageTo3d', { query: { limit: '1' } });
  await services.client
    .call('createImageTo3dLegacy', { body: { image_url: 'https://example.com/a.png' }, maxAttempts: 1 })
    .catch(() => undefined);
}

/** Every request carried `key`; the list went to the base address, the older create to the legacy one. */
function expectBoth(key: string): void {
  expect(seen.map((s) => s.key)).toEqual(seen.map(() => key));
  expect(seen).toContainEqual({
    server: 'base',
    method: 'GET',
    path: expect.stringMatching(/^\/image-to-3d-sessions\?limit=1\b/),
    key,
  });
  expect(seen).toContainEqual({ server: 'legacy', method: 'POST', path: '/image-to-3d-sessions', key });
}

describe('the public service by default', () => {
  it('documents the SDK’s base URL and its older variant on port 5566', () => {
    expect(PUBLIC_SERVICE).toEqual({ baseUrl: 'https://api.csm.ai', legacyBaseUrl: 'https://api.csm.ai:5566' });
    // Without the test's stand-in, a key and no address resolve to those addresses.
    const resolved = resolveConnection({ dataDir: '/data', keyFile: 'file_key_0123456789' });
    expect(resolved).toMatchObject({
      mode: 'service',
      baseUrl: 'https://api.csm.ai',
      legacyBaseUrl: 'https://api.csm.ai:5566',
      apiKey: 'file_key_0123456789',
      keySource: 'key-file',
      profile: SERVICE_PROFILE,
    });
    expect(connectionView(resolved)).toMatchObject({
      origin: 'profile',
      profile: 'csm',
      address: 'https://api.csm.ai',
    });
  });

  it('a key saved with "key set" and no address: requests go to the public service’s addresses with that key', async () => {
    const dataDir = tempDir();
    writeKeyFile(dataDir, 'saved_key_0123456789');
    const session = await openSession(dataDir);
    try {
      expect(session.connection).toMatchObject({
        mode: 'service',
        baseUrl: addresses.baseUrl,
        legacyBaseUrl: addresses.legacyBaseUrl,
        keySource: 'key-file',
        profile: SERVICE_PROFILE,
      });
      expect(session.connection.note?.text).toMatch(/goes to the public service/);
      seen.length = 0;
      await callBoth(session.services);
      expectBoth('saved_key_0123456789');
    } finally {
      await session.close();
    }
  });

  it('the built-in "csm" profile has those addresses: only its key is set, and its key goes only there', async () => {
    const dataDir = tempDir();
    const session = await openSession(dataDir);
    try {
      expect(session.connection.mode).toBe('local-engine');
      expect(session.listProfiles().map((p) => p.name)).toEqual(['local', 'csm']);
      expect(session.profiles.get('csm')).toEqual({ name: 'csm', ...addresses });
      expect(() => session.profiles.save({ name: 'csm', baseUrl: 'https://elsewhere.example.com' })).toThrow(
        /cannot be changed/,
      );
      session.profiles.setKey('csm', 'profile_key_0123456789', true);
      session.profiles.activate('csm');
      await session.rebuild();
      expect(session.connection).toMatchObject({ origin: 'profile', profile: 'csm', keySource: 'profile' });
      seen.length = 0;
      await callBoth(session.services);
      expectBoth('profile_key_0123456789');
      // An address from the environment takes the connection: the profile's key is not sent there.
      expect(() =>
        resolveConnection({
          dataDir,
          env: { ASSET_STUDIO_BASE_URL: 'https://other.example.com' },
          saved: { profile: 'csm', ...addresses, apiKey: 'profile_key_0123456789' },
          publicService: addresses,
        }),
      ).toThrow(/no API key/);
    } finally {
      await session.close();
    }
  });
});
