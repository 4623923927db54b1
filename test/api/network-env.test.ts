// What the environment says about the network (main/api/network-env.ts): the proxy variables as undici and curl
// read them (lower-case first), NO_PROXY's default (this machine: the embedded engine), and the certificates.
import { getCACertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { Agent, EnvHttpProxyAgent } from 'undici';
import { createDispatcher } from '../../main/api/dispatcher.ts';
import { LOOPBACK_NO_PROXY, proxySettings, trustedCertificates } from '../../main/api/network-env.ts';

describe('proxySettings', () => {
  it('is undefined without HTTP_PROXY or HTTPS_PROXY (ALL_PROXY is not read, as undici does not)', () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ ALL_PROXY: 'http://p:1', NO_PROXY: 'x' })).toBeUndefined();
    expect(proxySettings({ HTTP_PROXY: '  ' })).toBeUndefined();
  });

  it('reads the lower-case names first, and NO_PROXY as given', () => {
    expect(
      proxySettings({ HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:2', NO_PROXY: 'a', no_proxy: 'b' }),
    ).toEqual({ httpProxy: 'http://lower:2', httpsProxy: '', noProxy: 'b' });
    expect(proxySettings({ HTTPS_PROXY: 'http://p:3', NO_PROXY: '' })).toEqual({
      httpProxy: '',
      httpsProxy: 'http://p:3',
      noProxy: '',
    });
  });

  it('reaches this machine directly when NO_PROXY is not set', () => {
    expect(proxySettings({ HTTPS_PROXY: 'http://p:3' })?.noProxy).toBe(LOOPBACK_NO_PROXY);
  });
});

describe('trustedCertificates and createDispatcher', () => {
  it("leave Node's store (NODE_EXTRA_CA_CERTS included) unless NODE_USE_SYSTEM_CA=1 adds the system's", () => {
    expect(trustedCertificates({})).toBeUndefined();
    const both = trustedCertificates({ NODE_USE_SYSTEM_CA: '1' })!;
    expect(both).toEqual(expect.arrayContaining(getCACertificates('system')));
    expect(both).toEqual(expect.arrayContaining(getCACertificates('default')));
  });

  it('gives an Agent without a proxy, and undici’s EnvHttpProxyAgent with one', async () => {
    const limits = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 };
    const plain = createDispatcher(limits, {});
    const proxied = createDispatcher(limits, { HTTP_PROXY: 'http://127.0.0.1:9', NODE_USE_SYSTEM_CA: '1' });
    expect(plain).toBeInstanceOf(Agent);
    expect(proxied).toBeInstanceOf(EnvHttpProxyAgent);
    await Promise.all([plain.close(), proxied.close()]);
  });
});
