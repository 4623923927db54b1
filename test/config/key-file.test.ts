import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKeyFileEntry, writeKeyFile } from '../../main/config/key-file.ts';
import { tempDir } from '../helpers.ts';

describe('key file', () => {
  it('refuses a key file other users can read, with the command that fixes it', () => {
    const dataDir = tempDir();
    const keyFile = join(dataDir, 'api-key');
    writeFileSync(keyFile, 'k');
    chmodSync(keyFile, 0o644);
    expect(() => readKeyFileEntry(dataDir)).toThrow(/chmod 600/);
    writeKeyFile(dataDir, 'from-file-key', { address: 'https://api.example.com' });
    expect(readKeyFileEntry(dataDir)).toEqual({ key: 'from-file-key', address: 'https://api.example.com' });
  });
});
