// A client for the reads of one command (`get`, `list`, `balance`…) against a configured service: the connection
// alone, without the database, job tracker or download cache the composition root (services.ts) builds, so a
// short read loads and costs only what it uses. With no service configured it is the composition root's client
// (the embedded engine, started or found, comes with it).
import { ServiceClient } from '../api/client.ts';
import type { ConnectionSettings } from '../config/data-dir.ts';
import { serviceClientOptions } from './service-client.ts';
import type { ServiceOptions } from './services.ts';

export interface ReadClient {
  client: ServiceClient;
  mode: 'embedded' | 'service';
  close(): Promise<void>;
}

export async function createReadClient(
  settings: ConnectionSettings,
  options: ServiceOptions = {},
): Promise<ReadClient> {
  if (settings.baseUrl === undefined || settings.apiKey === undefined) {
    const { createServices } = await import('./services.ts');
    const services = await createServices(settings, options);
    return { client: services.client, mode: services.mode, close: () => services.close() };
  }
  const client = new ServiceClient(
    serviceClientOptions(options, {
      baseUrl: settings.baseUrl,
      legacyBaseUrl: settings.legacyBaseUrl,
      apiKey: settings.apiKey,
    }),
  );
  return { client, mode: 'service', close: () => client.close() };
}
