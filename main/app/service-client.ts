// The options of the app's ServiceClient: a connection's addresses and key, with the timeouts and the logger
// of the services' options. The composition root (services.ts) and a command's read client (read-client.ts)
// build their clients with it.
import type { ServiceClientOptions } from '../api/client.ts';
import type { ServiceOptions } from './services.ts';

export function serviceClientOptions(
  options: Pick<ServiceOptions, 'timeouts' | 'logger'>,
  at: Pick<ServiceClientOptions, 'baseUrl' | 'legacyBaseUrl' | 'apiKey'>,
): ServiceClientOptions {
  return {
    ...options.timeouts,
    ...(options.logger && { logger: options.logger }),
    baseUrl: at.baseUrl,
    legacyBaseUrl: at.legacyBaseUrl,
    apiKey: at.apiKey,
  };
}
