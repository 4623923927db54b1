// Issue #26, item 2: an API key is bound to the address it was set for. Changing a profile's address (or its
// older variants' address) forgets its key, so the next call never sends the real key to the new address:
// a test server there sees no `x-api-key` carrying it. The same through the bridge (what the UI sends).
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../shared/bridge/contract.ts';
import { startDataFolderEngine } from '../../main/app/services.ts';
import { removeKeyFile, writeKeyFile } from '../../main/config/key-file.ts';
import type { RunningLocalEngine } from '../../main/engine/engine.ts';
import type { BridgeService } from '../../main/host/bridge-service.ts';
import { fakeEncryptor, openTestBridge } from './bridge.ts';
import { tempDir } from './helpers.ts';

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

const remote = tempDir('key-address-remote');
const data = tempDir('key-address');
let engine: RunningLocalEngine;
let bridge: BridgeService;

beforeAll(async () => {
  writeFileSync(join(remote.path, 'engine-key'), KEY, { mode: 0o600 });
  engine = await startDataFolderEngine(remote.path, { speed: 500 });
  bridge = await openTestBridge(data.path, { transport: 'electron', encryptor: fakeEncryptor() });
});

afterAll(async () => {
  await bridge.close();
  await engine.close();
  data.remove();
  remote.remove();
});

const keyOf = async (profile: string) =>
  COMMANDS['settings.get'].output.parse(await bridge.call('settings.get', {})).profiles.find((p) => p.name === profile)
    ?.key;

describe('a key follows no changed address', () => {
  it('changing the address of the active profile forgets its key: the new address never sees it', async () => {
    const spy = await startSpy();
    try {
      await bridge.call('settings.update', { profile: { name: 'cloud', baseUrl: engine.url } });
      await bridge.call('key.set', { profile: 'cloud', key: KEY });
      await bridge.call('settings.update', { activeProfile: 'cloud' });
      expect(await keyOf('cloud')).toEqual({ configured: true, storage: 'os-keychain' });
      await bridge.call('sessions.list', {}); // works at the address the key was set for

      // Only the address changes (the key is not given again).
      await bridge.call('settings.update', { profile: { name: 'cloud', baseUrl: spy.url } }).catch(() => undefined);
      expect(await keyOf('cloud')).toEqual({ configured: false, storage: 'none' });
      await bridge.call('sessions.list', {}).catch(() => undefined);
      await bridge.call('app.info', {}).catch(() => undefined);
      expect(spy.seen.map((h) => h['x-api-key']).filter((k) => k === KEY)).toEqual([]);

      // The key set again, for the new address, is sent there.
      await bridge.call('key.set', { profile: 'cloud', key: KEY });
      await bridge.call('sessions.list', {}).catch(() => undefined);
      expect(spy.seen.some((h) => h['x-api-key'] === KEY)).toBe(true);
    } finally {
      await bridge.call('settings.update', { activeProfile: 'local' }).catch(() => undefined);
      await spy.close();
    }
  });

  it("a key file set for no address is not sent to the profile's new address either", async () => {
    const spy = await startSpy();
    writeKeyFile(data.path, KEY); // `asset-studio key set` without an address, in the same data folder
    try {
      await bridge.call('settings.update', { profile: { name: 'filed', baseUrl: engine.url } });
      await bridge.call('key.set', { profile: 'filed', key: KEY });
      await bridge.call('settings.update', { activeProfile: 'filed' });
      await bridge.call('settings.update', { profile: { name: 'filed', baseUrl: spy.url } });
      const info = COMMANDS['app.info'].output.parse(await bridge.call('app.info', {}));
      expect(info.mode).toBe('embedded'); // no key for the new address: the engine, saying why
      await bridge.call('sessions.list', {}).catch(() => undefined);
      expect(spy.seen.filter((h) => h['x-api-key'] === KEY)).toEqual([]);
    } finally {
      await bridge.call('settings.update', { activeProfile: 'local' }).catch(() => undefined);
      removeKeyFile(data.path);
      await spy.close();
    }
  });

  it("changing an inactive profile's older variants' address forgets its key too; keeping both keeps it", async () => {
    await bridge.call('settings.update', { profile: { name: 'other', baseUrl: engine.url } });
    await bridge.call('key.set', { profile: 'other', key: KEY });
    await bridge.call('settings.update', { profile: { name: 'other', baseUrl: engine.url } });
    expect(await keyOf('other')).toEqual({ configured: true, storage: 'os-keychain' });
    await bridge.call('settings.update', {
      profile: { name: 'other', baseUrl: engine.url, legacyBaseUrl: 'http://127.0.0.1:9' },
    });
    expect(await keyOf('other')).toEqual({ configured: false, storage: 'none' });
  });
});
