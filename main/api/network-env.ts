// What the environment says about the network: a proxy (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, lower-case names
// first, as undici and curl read them) and the certificates to trust (Node's own store, which takes a company CA
// from NODE_EXTRA_CA_CERTS; with NODE_USE_SYSTEM_CA=1, the system's store too). Read by the one dispatcher of the
// app (dispatcher.ts) and by the download fast path (main/cache/fast-get.ts), which loads no undici.
import * as tls from 'node:tls';

export interface ProxySettings {
  /** The proxy of http:// URLs ('' for none). */
  httpProxy: string;
  /** The proxy of https:// URLs ('' for none: then the http one, as undici's EnvHttpProxyAgent does). */
  httpsProxy: string;
  /**
   * Hosts reached directly: NO_PROXY as given (comma or space separated names, `.domain`, `*.domain`, `host:port`,
   * `*`). Unset, it is this machine's loopback names: the embedded engine is never reached through a proxy.
   */
  noProxy: string;
}

/** Hosts reached without the proxy when NO_PROXY is not set: this machine (the embedded engine listens there). */
export const LOOPBACK_NO_PROXY = 'localhost,127.0.0.1,[::1]';

function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  return env[name.toLowerCase()] ?? env[name];
}

/** The proxy the environment names, or undefined when it names none (requests go straight to their host). */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings | undefined {
  const httpProxy = variable(env, 'HTTP_PROXY')?.trim() ?? '';
  const httpsProxy = variable(env, 'HTTPS_PROXY')?.trim() ?? '';
  if (httpProxy === '' && httpsProxy === '') return undefined;
  return { httpProxy, httpsProxy, noProxy: variable(env, 'NO_PROXY') ?? LOOPBACK_NO_PROXY };
}

/**
 * The certificates TLS connections trust, when they are more than Node's default store (which already holds the
 * CA files of NODE_EXTRA_CA_CERTS): with NODE_USE_SYSTEM_CA=1, the default store and the system's (a company CA
 * installed in the operating system), also where the runtime (Electron's Node) does not read that variable itself.
 * Undefined: Node's default store.
 */
export function trustedCertificates(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  if (env.NODE_USE_SYSTEM_CA !== '1') return undefined;
  try {
    // Read once per process: the system's store is a few hundred certificates.
    // A namespace read: a runtime without getCACertificates (an older Electron) gets its default store, not a link error.
    const read = tls.getCACertificates as typeof tls.getCACertificates | undefined;
    if (read === undefined) return undefined;
    systemAndDefault ??= [...new Set([...read('default'), ...read('system')])];
    return systemAndDefault;
  } catch {
    return undefined; // a runtime without getCACertificates: its default store
  }
}

let systemAndDefault: string[] | undefined;
