import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveSettings, SettingsError, writeKeyFile } from '../../main/config/settings.ts';
import { tempDir } from '../helpers.ts';

describe('settings', () => {
  it('puts the data folder where each platform expects it', () => {
    expect(defaultDataDir({}, 'linux', '/home/ann')).toBe('/home/ann/.local/share/asset-studio');
    expect(defaultDataDir({ XDG_DATA_HOME: '/data' }, 'linux', '/home/ann')).toBe('/data/asset-studio');
    expect(defaultDataDir({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/Asset Studio');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ann')).toContain('Asset Studio');
  });

  it('flags win over the environment, which wins over the key file', () => {
    const dataDir = tempDir();
    writeKeyFile(dataDir, 'from-file-key');
    const env = { ASSET_STUDIO_DATA_DIR: dataDir, ASSET_STUDIO_BASE_URL: 'https://env.example.com', ASSET_STUDIO_API_KEY: 'from-env-key' };
    expect(resolveSettings({ flags: { baseUrl: 'https://flag.example.com' }, env })).toMatchObject({ baseUrl: 'https://flag.example.com', apiKey: 'from-env-key', dataDir });
    expect(resolveSettings({ flags: {}, env: { ASSET_STUDIO_DATA_DIR: dataDir, ASSET_STUDIO_BASE_URL: 'https://x.example.com' } }).apiKey).toBe('from-file-key');
  });

  it('with nothing configured, the embedded engine is used', () => {
    expect(resolveSettings({ flags: { dataDir: tempDir() }, env: {} })).toMatchObject({ baseUrl: undefined, apiKey: undefined });
  });

  it('refuses contradicting or unsafe settings with an action', () => {
    const dataDir = tempDir();
    expect(() => resolveSettings({ flags: { dataDir, baseUrl: 'ftp://x' }, env: {} })).toThrow(/must be an http:\/\/ or https:\/\/ address/);
    expect(() => resolveSettings({ flags: { dataDir, baseUrl: 'https://x.example.com' }, env: {} })).toThrow(SettingsError);
    expect(() => resolveSettings({ flags: { dataDir, apiKey: 'k_123456789' }, env: {} })).toThrow(/no service address/);
    const keyFile = join(dataDir, 'api-key');
    writeFileSync(keyFile, 'k');
    chmodSync(keyFile, 0o644);
    expect(() => resolveSettings({ flags: { dataDir }, env: {} })).toThrow(/chmod 600/);
  });
});
