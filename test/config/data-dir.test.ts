import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, readKeyFile, writeKeyFile } from '../../main/config/data-dir.ts';
import { tempDir } from '../helpers.ts';

describe('settings', () => {
  it('puts the data folder where each platform expects it', () => {
    expect(defaultDataDir({}, 'linux', '/home/ann')).toBe('/home/ann/.local/share/asset-studio');
    expect(defaultDataDir({ XDG_DATA_HOME: '/data' }, 'linux', '/home/ann')).toBe('/data/asset-studio');
    expect(defaultDataDir({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/Asset Studio');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ann')).toContain('Asset Studio');
  });

  it('refuses a key file other users can read, with the command that fixes it', () => {
    const dataDir = tempDir();
    const keyFile = join(dataDir, 'api-key');
    writeFileSync(keyFile, 'k');
    chmodSync(keyFile, 0o644);
    expect(() => readKeyFile(dataDir)).toThrow(/chmod 600/);
    writeKeyFile(dataDir, 'from-file-key');
    expect(readKeyFile(dataDir)).toBe('from-file-key');
  });
});
