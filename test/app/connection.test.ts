// The one resolver of connection and key: flags > environment > saved profile > embedded engine.
import { describe, expect, it } from 'vitest';
import { ConnectionError, connectionView, resolveConnection, savedProfile } from '../../main/app/connection.ts';
import {
  EncryptedFileVault,
  KeyStorageError,
  ProfileStore,
  SessionKeyVault,
  type Encryptor,
} from '../../main/config/profiles.ts';
import { openDatabase } from '../../main/store/database.ts';
import { tempDir } from '../helpers.ts';

const dataDir = '/data/asset-studio';
const env = { ASSET_STUDIO_BASE_URL: 'https://env.example.com', ASSET_STUDIO_API_KEY: 'env_key_0123456789' };
const profile = {
  profile: 'cloud',
  baseUrl: 'https://profile.example.com',
  legacyBaseUrl: 'https://profile.example.com:8443',
  apiKey: 'profile_key_0123456789',
};

describe('resolveConnection', () => {
  it('takes flags over the environment over the saved profile over the engine', () => {
    const flags = { baseUrl: 'https://flag.example.com', apiKey: 'flag_key_0123456789', apiKeyFrom: 'file' as const };
    expect(resolveConnection({ dataDir, flags, env, saved: profile })).toMatchObject({
      origin: 'flag',
      mode: 'service',
      baseUrl: 'https://flag.example.com',
      apiKey: 'flag_key_0123456789',
      keySource: 'file',
    });
    expect(resolveConnection({ dataDir, env, saved: profile })).toMatchObject({
      origin: 'environment',
      baseUrl: 'https://env.example.com',
      apiKey: 'env_key_0123456789',
      keySource: 'environment',
    });
    expect(resolveConnection({ dataDir, env: {}, saved: profile })).toMatchObject({
      origin: 'profile',
      profile: 'cloud',
      baseUrl: 'https://profile.example.com',
      legacyBaseUrl: 'https://profile.example.com:8443',
      apiKey: 'profile_key_0123456789',
      keySource: 'profile',
    });
    expect(resolveConnection({ dataDir, env: {}, saved: { profile: 'local' } })).toMatchObject({
      origin: 'engine',
      mode: 'local-engine',
      keySource: 'engine',
    });
    expect(resolveConnection({ dataDir })).toMatchObject({ origin: 'engine', mode: 'local-engine' });
  });

  it('says when the environment overrides a saved profile', () => {
    expect(resolveConnection({ dataDir, env, saved: profile }).note).toEqual({
      level: 'info',
      text: 'The saved profile "cloud" is not used while ASSET_STUDIO_BASE_URL is set.',
    });
  });

  it('an address from a flag takes the key from the environment, then the key file', () => {
    expect(
      resolveConnection({
        dataDir,
        flags: { baseUrl: 'https://flag.example.com' },
        env: { ASSET_STUDIO_API_KEY: 'env_key_0123456789' },
        keyFile: 'file_key_0123456789',
      }),
    ).toMatchObject({ apiKey: 'env_key_0123456789', keySource: 'environment' });
    expect(
      resolveConnection({ dataDir, flags: { baseUrl: 'https://flag.example.com' }, keyFile: 'file_key_0123456789' }),
    ).toMatchObject({ apiKey: 'file_key_0123456789', keySource: 'key-file' });
  });

  it("never sends a profile's key to an address from a flag or the environment", () => {
    expect(() =>
      resolveConnection({ dataDir, env: { ASSET_STUDIO_BASE_URL: 'https://elsewhere.example.com' }, saved: profile }),
    ).toThrow(/ASSET_STUDIO_BASE_URL.*no API key/);
  });

  it('a key from the environment is used with the profile address (flags and environment win per part)', () => {
    expect(
      resolveConnection({ dataDir, env: { ASSET_STUDIO_API_KEY: 'env_key_0123456789' }, saved: profile }),
    ).toMatchObject({ origin: 'profile', apiKey: 'env_key_0123456789', keySource: 'environment' });
  });

  it('refuses contradicting or wrong settings with what to do', () => {
    expect(() => resolveConnection({ dataDir, flags: { baseUrl: 'ftp://x' } })).toThrow(
      /--base-url must be an http:\/\/ or https:\/\/ address/,
    );
    expect(() =>
      resolveConnection({ dataDir, env: { ASSET_STUDIO_BASE_URL: 'localhost:8080', ASSET_STUDIO_API_KEY: 'k' } }),
    ).toThrow(/ASSET_STUDIO_BASE_URL must be/);
    expect(() => resolveConnection({ dataDir, flags: { baseUrl: 'https://x.example.com' } })).toThrow(
      /no API key: pass --api-key-file FILE/,
    );
    const missing = (() => {
      try {
        resolveConnection({ dataDir, saved: { profile: 'cloud', baseUrl: 'https://profile.example.com' } });
      } catch (error) {
        return error;
      }
    })();
    expect(missing).toBeInstanceOf(ConnectionError);
    expect((missing as ConnectionError).problem).toBe('profile-key-missing');
    expect((missing as Error).message).toMatch(
      /profile "cloud" \(https:\/\/profile\.example\.com\) has no API key here/,
    );
    expect(() => resolveConnection({ dataDir: '' })).toThrow(ConnectionError);
  });

  it('a key with no address goes to the public service (the "csm" profile), saying so', () => {
    const resolved = resolveConnection({ dataDir, keyFile: 'file_key_0123456789' });
    expect(resolved).toMatchObject({
      origin: 'profile',
      profile: 'csm',
      baseUrl: 'https://api.csm.ai',
      legacyBaseUrl: 'https://api.csm.ai:5566',
      apiKey: 'file_key_0123456789',
      keySource: 'key-file',
    });
    expect(resolved.note).toMatchObject({ level: 'info', text: expect.stringMatching(/key set.*public service/) });
    expect(resolveConnection({ dataDir, env: { ASSET_STUDIO_API_KEY: 'env_key_0123456789' } })).toMatchObject({
      baseUrl: 'https://api.csm.ai',
      apiKey: 'env_key_0123456789',
      keySource: 'environment',
    });
    // A legacy address given keeps its place; a test's stand-in replaces the public addresses.
    const local = { baseUrl: 'http://127.0.0.1:1', legacyBaseUrl: 'http://127.0.0.1:2' };
    expect(resolveConnection({ dataDir, keyFile: 'k_0123456789', publicService: local })).toMatchObject(local);
    /** The connection with a key file set for `address`. */
    const keyFileFor = (address: string) =>
      resolveConnection({ dataDir, keyFile: 'file_key_0123456789', keyFileBound: { address } });
    // A key file set for another address is not sent to the public service: the engine, saying why.
    const elsewhere = keyFileFor('https://other.example.com');
    expect(elsewhere).toMatchObject({ origin: 'engine', mode: 'local-engine' });
    expect(elsewhere.apiKey).toBeUndefined();
    expect(elsewhere.note).toMatchObject({ level: 'warning', text: expect.stringMatching(/other\.example\.com/) });
    // One set for the public service's address goes there (without an older variants' address it was not set for).
    const bound = keyFileFor('https://api.csm.ai/');
    expect(bound).toMatchObject({ baseUrl: 'https://api.csm.ai', apiKey: 'file_key_0123456789' });
    expect(bound.legacyBaseUrl).toBeUndefined();
    // With the "local" profile active and no key anywhere, the embedded engine as before.
    expect(resolveConnection({ dataDir, saved: { profile: 'local' } })).toMatchObject({ origin: 'engine' });
  });

  it('the view shows where it comes from, never the key or credentials in the address', () => {
    const view = connectionView(
      resolveConnection({
        dataDir,
        env: {
          ASSET_STUDIO_BASE_URL: 'https://user:pass@env.example.com/api/?token=x',
          ASSET_STUDIO_API_KEY: 'env_key_0123456789',
        },
      }),
    );
    expect(view).toEqual({
      origin: 'environment',
      mode: 'service',
      address: 'https://env.example.com/api',
      keySource: 'environment',
    });
    expect(JSON.stringify(view)).not.toContain('env_key_0123456789');
  });
});

describe('savedProfile', () => {
  it('reads the active profile and its key, and keeps a key that cannot be decrypted as the reason', () => {
    const dir = tempDir();
    const store = openDatabase(':memory:');
    const broken: Encryptor = {
      unavailableReason: () => undefined,
      encrypt: (t) => Buffer.from(t),
      decrypt: () => {
        throw new Error('bad');
      },
    };
    const profiles = new ProfileStore(store.settings, {
      persistent: new EncryptedFileVault(dir, broken),
      session: new SessionKeyVault(),
    });
    expect(savedProfile(profiles)).toEqual({ profile: 'local' });
    profiles.save({ name: 'cloud', baseUrl: 'https://profile.example.com' });
    profiles.setKey('cloud', 'stored_key_0123456789', false);
    expect(() => profiles.key('cloud')).toThrow(KeyStorageError);
    profiles.setKey('cloud', 'session_key_0123456789', true);
    profiles.activate('cloud');
    expect(savedProfile(profiles)).toEqual({
      profile: 'cloud',
      baseUrl: 'https://profile.example.com',
      apiKey: 'session_key_0123456789',
    });
    const restarted = new ProfileStore(store.settings, {
      persistent: new EncryptedFileVault(dir, broken),
      session: new SessionKeyVault(),
    });
    expect(savedProfile(restarted)).toMatchObject({
      profile: 'cloud',
      keyProblem: expect.stringMatching(/cannot be decrypted/),
    });
    expect(() => resolveConnection({ dataDir, saved: savedProfile(restarted) })).toThrow(/cannot be decrypted/);
    store.close();
  });
});
