// A bridge over the embedded engine for the host tests, opened as the web host (or Electron) opens it, with
// fast engines and polling, and a stand-in for Electron's safeStorage; beside it, an engine playing the service.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createServices, type ServiceOptions, startDataFolderEngine } from '../../main/app/services.ts';
import { EncryptedFileVault, type Encryptor } from '../../main/config/profiles.ts';
import type { RunningLocalEngine } from '../../main/engine/engine.ts';
import { BridgeService, type BridgeServiceOptions } from '../../main/host/bridge-service.ts';
import { DEFAULT_TIMING, scaleTiming } from '../../main/jobs/schedule.ts';
import { cachePath } from '../../shared/bridge/web-protocol.ts';
import { tempDir } from './helpers.ts';

/** Fast engines, and fast polling even for a service profile (which polls at real-service pace otherwise). */
export const FAST: ServiceOptions = { engineSpeed: 500, timing: scaleTiming(DEFAULT_TIMING, 500) };

/** A reversible stand-in for safeStorage; `refuse` plays Linux's basic_text backend. */
export function fakeEncryptor(refuse?: string): Encryptor {
  return {
    unavailableReason: () => refuse,
    encrypt: (text) => Buffer.from(Buffer.from(text, 'utf8').map((b) => b ^ 0x5a)),
    decrypt: (data) => Buffer.from(data.map((b) => b ^ 0x5a)).toString('utf8'),
  };
}

/**
 * A bridge on `dataDir` with FAST services (or `services`): as the web host opens it (files resolved by path or
 * upload id), or as Electron's (`transport: 'electron'`, no file resolved); keys kept in a vault of
 * `encryptor` when one is given.
 */
export function openTestBridge(
  dataDir: string,
  options: {
    encryptor?: Encryptor;
    transport?: 'web' | 'electron';
    services?: ServiceOptions;
    connectionSources?: BridgeServiceOptions['connectionSources'];
  } = {},
): Promise<BridgeService> {
  const { encryptor, transport = 'web', services = FAST, connectionSources } = options;
  return BridgeService.open({
    dataDir,
    openServices: (c) => createServices(c, services),
    ...(connectionSources ? { connectionSources } : {}),
    platform: {
      transport,
      ...(encryptor ? { keyVault: new EncryptedFileVault(dataDir, encryptor) } : {}),
      resolveFile: transport === 'web' ? (ref) => ('path' in ref ? ref.path : ref.uploadId) : () => '',
      cacheUrl: cachePath,
    },
  });
}

/**
 * For a test file: a bridge on a temporary data folder (keys in a vault of fakeEncryptor, `transport` as
 * openTestBridge's), and a second engine on a folder of its own that plays the real service, answering the
 * key `key`. Opened before the file's tests, closed (folders removed) after them; the object is filled in then.
 */
export function useBridgeAndService(
  name: string,
  key: string,
  transport: 'web' | 'electron' = 'web',
): { bridge: BridgeService; service: RunningLocalEngine; dataDir: string } {
  const data = tempDir(name);
  const remote = tempDir(`${name}-remote`);
  const opened = { dataDir: data.path } as { bridge: BridgeService; service: RunningLocalEngine; dataDir: string };
  beforeAll(async () => {
    writeFileSync(join(remote.path, 'engine-key'), key, { mode: 0o600 });
    opened.service = await startDataFolderEngine(remote.path, { speed: 500 });
    opened.bridge = await openTestBridge(data.path, { transport, encryptor: fakeEncryptor() });
  });
  afterAll(async () => {
    await opened.bridge?.close();
    await opened.service?.close();
    data.remove();
    remote.remove();
  });
  return opened;
}
