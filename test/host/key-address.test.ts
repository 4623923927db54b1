// Issue #26, item 2: an API key is bound to the address it was set for. Changing a profile's address (or its
// older variants' address) forgets its key, so the next call never sends the real key to the new address:
// a test server there sees no `x-api-key` carrying it. The same through the bridge (what the UI sends).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../shared/bridge/contract.ts';
import { removeKeyFile, writeKeyFile } from '../../main/config/key-file.ts';
import { useBridgeAndService } from './bridge.ts';

const KEY = 'sk_live_BOUND_TO_ITS_ADDRESS_7731';

/** Another address: records every request's headers, answers 404. */
async function startSpy(): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"error":"Not Found","message":"no","statusCode":404}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const h = useBridgeAndService('key-address', KEY, 'electron');

const keyOf = async (profile: string) =>
  COMMANDS['settings.get'].output
    .parse(await h.bridge.call('settings.get', {}))
    .profiles.find((p) => p.name === profile)?.key;

describe('a key follows no changed address', () => {
  it('changing the address of the active profile forgets its key: the new address never sees it', async () => {
    const spy = await startSpy();
    try {
      await h.bridge.call('settings.update', { profile: { name: 'cloud', baseUrl: h.service.url } });
      await h.bridge.call('key.set', { profile: 'cloud', key: KEY });
      await h.bridge.call('settings.update', { activeProfile: 'cloud' });
      expect(await keyOf('cloud')).toEqual({ configured: true, storage: 'os-keychain' });
      await h.bridge.call('sessions.list', {}); // works at the address the key was set for

      // Only the address changes (the key is not given again).
      await h.bridge.call('settings.update', { profile: { name: 'cloud', baseUrl: spy.url } }).catch(() => undefined);
      expect(await keyOf('cloud')).toEqual({ configured: false, storage: 'none' });
      await h.bridge.call('sessions.list', {}).catch(() => undefined);
      await h.bridge.call('app.info', {}).catch(() => undefined);
      expect(spy.seen.map((h) => h['x-api-key']).filter((k) => k === KEY)).toEqual([]);

      // The key set again, for the new address, is sent there.
      await h.bridge.call('key.set', { profile: 'cloud', key: KEY });
      await h.bridge.call('sessions.list', {}).catch(() => undefined);
      expect(spy.seen.some((h) => h['x-api-key'] === KEY)).toBe(true);
    } finally {
      await h.bridge.call('settings.update', { activeProfile: 'local' }).catch(() => undefined);
      await spy.close();
    }
  });

  it("a key file set for no address is not sent to the profile's new address either", async () => {
    const spy = await startSpy();
    writeKeyFile(h.dataDir, KEY); // `asset-studio key set` without an address, in the same data folder
    try {
      await h.bridge.call('settings.update', { profile: { name: 'filed', baseUrl: h.service.url } });
      await h.bridge.call('key.set', { profile: 'filed', key: KEY });
      await h.bridge.call('settings.update', { activeProfile: 'filed' });
      await h.bridge.call('settings.update', { profile: { name: 'filed', baseUrl: spy.url } });
      const info = COMMANDS['app.info'].output.parse(await h.bridge.call('app.info', {}));
      expect(info.mode).toBe('embedded'); // no key for the new address: the engine, saying why
      await h.bridge.call('sessions.list', {}).catch(() => undefined);
      expect(spy.seen.filter((h) => h['x-api-key'] === KEY)).toEqual([]);
    } finally {
      await h.bridge.call('settings.update', { activeProfile: 'local' }).catch(() => undefined);
      removeKeyFile(h.dataDir);
      await spy.close();
    }
  });

  it("changing an inactive profile's older variants' address forgets its key too; keeping both keeps it", async () => {
    await h.bridge.call('settings.update', { profile: { name: 'other', baseUrl: h.service.url } });
    await h.bridge.call('key.set', { profile: 'other', key: KEY });
    await h.bridge.call('settings.update', { profile: { name: 'other', baseUrl: h.service.url } });
    expect(await keyOf('other')).toEqual({ configured: true, storage: 'os-keychain' });
    await h.bridge.call('settings.update', {
      profile: { name: 'other', baseUrl: h.service.url, legacyBaseUrl: 'http://127.0.0.1:9' },
    });
    expect(await keyOf('other')).toEqual({ configured: false, storage: 'none' });
  });
});
