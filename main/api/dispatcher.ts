// The one home of the HTTP dispatcher the app uses for what leaves the machine: the API client's calls
// (transport.ts) and the downloads of outputs that the fast path leaves to undici (main/cache). It honours the
// environment's proxy (undici's EnvHttpProxyAgent: HTTP_PROXY, HTTPS_PROXY, NO_PROXY, lower-case names too;
// CONNECT for https:// URLs, absolute-form requests for http:// ones) and its certificates (network-env.ts).
// undici is imported here by name, statically: a module that needs it lazily imports this module (or one that
// imports it) dynamically, never `import('undici')` itself, whose exports a bundle of the CLI loses
// (test/scripts/package-imports.test.ts).
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { proxySettings, trustedCertificates } from './network-env.ts';

export interface DispatcherLimits {
  /** Time to connect (and, through a proxy, to open its tunnel). */
  connectTimeoutMs: number;
  /** Time to wait for an answer's head. */
  headersTimeoutMs: number;
  /** Longest silence while a body is received. */
  bodyTimeoutMs: number;
}

/** A dispatcher with these limits that goes through the environment's proxy, if any, and trusts its certificates. */
export function createDispatcher(limits: DispatcherLimits, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  const ca = trustedCertificates(env);
  const common = {
    connect: { timeout: limits.connectTimeoutMs, ...(ca && { ca }) },
    headersTimeout: limits.headersTimeoutMs,
    bodyTimeout: limits.bodyTimeoutMs,
  };
  const proxy = proxySettings(env);
  if (proxy === undefined) return new Agent(common);
  return new EnvHttpProxyAgent({
    ...common,
    // The proxy's own connection and the tunnelled one to the host (https://) trust the same certificates.
    connectTimeout: limits.connectTimeoutMs,
    ...(ca && { proxyTls: { ca }, requestTls: { ca } }),
    httpProxy: proxy.httpProxy,
    httpsProxy: proxy.httpsProxy,
    noProxy: proxy.noProxy,
  } as EnvHttpProxyAgent.Options);
}
