// Issue #26, item 2, in the one resolver: the key file's key goes to the address it was set for, and one set
// for no address never goes to a profile's address (which the app's page can change), only to an address the
// person running the command gives (a flag or the environment), as before.
import { describe, expect, it } from 'vitest';
import { ConnectionError, resolveConnection } from '../../main/app/connection.ts';

const dataDir = '/data/asset-studio';
const keyFile = 'file_key_0123456789';
const saved = { profile: 'cloud', baseUrl: 'https://moved.example.com' };

describe('the key file and the address it is for', () => {
  it("is not sent to a profile's address unless it was set for it", () => {
    expect(() => resolveConnection({ dataDir, saved, keyFile })).toThrow(ConnectionError);
    expect(() => resolveConnection({ dataDir, saved, keyFile })).toThrow(
      /set for no address, so it is not sent to a profile's .*key set --base-url https:\/\/moved\.example\.com/,
    );
    expect(() =>
      resolveConnection({ dataDir, saved, keyFile, keyFileBound: { address: 'https://api.example.com' } }),
    ).toThrow(ConnectionError);
    expect(
      resolveConnection({ dataDir, saved, keyFile, keyFileBound: { address: 'https://moved.example.com/' } }),
    ).toMatchObject({ apiKey: keyFile, keySource: 'key-file', baseUrl: 'https://moved.example.com' });
  });

  it('goes to a flag or environment address only when it was set for that one (or for none)', () => {
    const flags = { baseUrl: 'https://flag.example.com' };
    expect(resolveConnection({ dataDir, flags, keyFile })).toMatchObject({ apiKey: keyFile });
    expect(
      resolveConnection({ dataDir, flags, keyFile, keyFileBound: { address: 'https://flag.example.com' } }),
    ).toMatchObject({ apiKey: keyFile });
    expect(() =>
      resolveConnection({ dataDir, flags, keyFile, keyFileBound: { address: 'https://api.example.com' } }),
    ).toThrow(/was set for https:\/\/api\.example\.com, not https:\/\/flag\.example\.com/);
    expect(() =>
      resolveConnection({
        dataDir,
        env: { ASSET_STUDIO_BASE_URL: 'https://api.example.com', ASSET_STUDIO_LEGACY_BASE_URL: 'https://x.example' },
        keyFile,
        keyFileBound: { address: 'https://api.example.com' },
      }),
    ).toThrow(ConnectionError);
  });

  it('with no service address given, goes to the public service only at the addresses it was set for', () => {
    const publicService = { baseUrl: 'https://api.csm.ai', legacyBaseUrl: 'https://legacy.csm.ai' };
    // Set for the public address alone: sent there, and to no older variants' address, not even one given.
    const alone = { address: 'https://api.csm.ai' };
    expect(resolveConnection({ dataDir, keyFile, keyFileBound: alone, publicService })).toMatchObject({
      baseUrl: 'https://api.csm.ai',
      legacyBaseUrl: undefined,
      apiKey: keyFile,
    });
    const legacyGiven = resolveConnection({
      dataDir,
      env: { ASSET_STUDIO_LEGACY_BASE_URL: 'https://x.example' },
      keyFile,
      keyFileBound: alone,
      publicService,
    });
    expect([legacyGiven.mode, legacyGiven.apiKey]).toEqual(['local-engine', undefined]);
    expect(legacyGiven.note).toMatchObject({ level: 'warning', text: expect.stringMatching(/set for https:\/\/api/) });
    // Set for an older variants' address alone: not sent to the public service's other one.
    const legacyOnly = { legacyAddress: 'https://x.example' };
    const elsewhere = resolveConnection({ dataDir, keyFile, keyFileBound: legacyOnly, publicService });
    expect([elsewhere.mode, elsewhere.apiKey]).toEqual(['local-engine', undefined]);
    expect(
      resolveConnection({ dataDir, keyFile, keyFileBound: { legacyAddress: 'https://legacy.csm.ai/' }, publicService }),
    ).toMatchObject({ baseUrl: 'https://api.csm.ai', legacyBaseUrl: 'https://legacy.csm.ai', apiKey: keyFile });
  });
});
