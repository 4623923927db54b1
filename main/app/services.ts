// The composition root: builds the services of the app from its settings. The CLI, the web host and
// the Electron shell all start here. With no service configured it starts the embedded local engine.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../api/client.ts';
import type { Logger } from '../api/redact.ts';
import type { ConnectionSettings } from '../config/settings.ts';
import { startEngine, type RunningEngine } from '../engine/engine.ts';

export interface Services {
  mode: 'service' | 'embedded';
  client: ServiceClient;
  /** Set in embedded mode. */
  engine?: RunningEngine;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Time factor of the embedded engine (1 = realistic durations). */
  engineSpeed?: number;
  logger?: Logger;
  timeouts?: { connectTimeoutMs?: number; headersTimeoutMs?: number; bodyTimeoutMs?: number };
}

export const DEFAULT_ENGINE_SPEED = 10;

export async function createServices(settings: ConnectionSettings, options: ServiceOptions = {}): Promise<Services> {
  const common = { ...options.timeouts, ...(options.logger && { logger: options.logger }) };
  if (settings.baseUrl !== undefined && settings.apiKey !== undefined) {
    const client = new ServiceClient({ ...common, baseUrl: settings.baseUrl, legacyBaseUrl: settings.legacyBaseUrl, apiKey: settings.apiKey });
    return { mode: 'service', client, close: () => client.close() };
  }
  const engineDir = join(settings.dataDir, 'engine');
  const apiKey = localEngineKey(settings.dataDir);
  const engine = await startEngine({ dataDir: engineDir, apiKey, speed: options.engineSpeed ?? DEFAULT_ENGINE_SPEED });
  const client = new ServiceClient({ ...common, baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl, apiKey });
  return {
    mode: 'embedded',
    client,
    engine,
    close: async () => {
      await client.close();
      await engine.close();
    },
  };
}

/** The key of the embedded engine: made once per data folder, readable by its owner only. */
export function localEngineKey(dataDir: string): string {
  const path = join(dataDir, 'engine-key');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const key = `local_${randomBytes(24).toString('hex')}`;
    writeFileSync(path, key, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    return key;
  }
}
