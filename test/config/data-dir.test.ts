import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../main/config/data-dir.ts';

describe('data folder', () => {
  it('puts the data folder where each platform expects it', () => {
    expect(defaultDataDir({}, 'linux', '/home/ann')).toBe('/home/ann/.local/share/asset-studio');
    expect(defaultDataDir({ XDG_DATA_HOME: '/data' }, 'linux', '/home/ann')).toBe('/data/asset-studio');
    expect(defaultDataDir({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/Asset Studio');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ann')).toContain(
      'Asset Studio',
    );
  });
});
