// The data folder as every entry point opens it: created private, an existing one made private (the app's
// own files only, said in one line), and a folder that cannot be used refused with what to do.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDataFolder } from '../../main/store/data-folder.ts';
import { DataFolderError } from '../../main/store/errors.ts';
import { tempDir } from './temp.ts';

const posix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

function refusal(dataDir: string): DataFolderError {
  let error: unknown;
  const lines: string[] = [];
  try {
    openDataFolder(dataDir, { notice: (line) => lines.push(line) });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DataFolderError);
  expect(lines).toEqual([]);
  return error as DataFolderError;
}

describe('openDataFolder', () => {
  it.skipIf(!posix)('creates a missing folder (and its parents) 0700, silently', () => {
    const dir = join(tempDir(), 'a', 'b', 'asset-studio');
    const lines: string[] = [];
    expect(openDataFolder(dir, { notice: (line) => lines.push(line) })).toBe(dir);
    expect(mode(dir)).toBe('700');
    expect(lines).toEqual([]);
  });

  it.skipIf(!posix)(
    "makes an existing folder and the app's files in it private, says so once, and leaves other files alone",
    () => {
      const dir = join(tempDir(), 'data');
      mkdirSync(join(dir, 'engine', 'files'), { recursive: true, mode: 0o755 });
      chmodSync(dir, 0o755);
      const appFiles = [
        'asset-studio.db',
        'asset-studio.db-wal',
        'asset-studio.db-shm',
        'api-key',
        'api-keys.json',
        'engine-key',
        join('engine', 'state.json'),
        join('engine', 'files', 'model.glb'),
      ];
      for (const file of appFiles) {
        writeFileSync(join(dir, file), 'x');
        chmodSync(join(dir, file), 0o644);
      }
      writeFileSync(join(dir, 'my-notes.txt'), "not the app's");
      chmodSync(join(dir, 'my-notes.txt'), 0o644);

      const lines: string[] = [];
      openDataFolder(dir, { notice: (line) => lines.push(line) });
      expect(mode(dir)).toBe('700');
      expect(mode(join(dir, 'engine'))).toBe('700');
      for (const file of appFiles) expect({ file, mode: mode(join(dir, file)) }).toEqual({ file, mode: '600' });
      expect(mode(join(dir, 'my-notes.txt'))).toBe('644');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(dir);
      expect(lines[0]).toMatch(/could be read by other users .*private/);

      openDataFolder(dir, { notice: (line) => lines.push(line) });
      expect(lines).toHaveLength(1); // nothing left to say
    },
  );

  it('refuses a file, naming it and what to do, exit code 2', () => {
    const file = join(tempDir(), 'data');
    writeFileSync(file, 'a file where the folder should be');
    const error = refusal(file);
    expect(error.exitCode).toBe(2);
    expect(error.path).toBe(file);
    expect(error.message).toBe(
      `The data folder ${file} is a file, not a folder. Move that file away, or point --data-dir (or ASSET_STUDIO_DATA_DIR) at another folder.`,
    );
  });

  it('refuses a folder below a file, naming the file', () => {
    const file = join(tempDir(), 'data');
    writeFileSync(file, '');
    const error = refusal(join(file, 'asset-studio'));
    expect(error.message).toContain(`${file} is a file, not a folder`);
    expect(error.message).not.toMatch(/ENOTDIR|EEXIST/);
  });

  it.skipIf(!posix || isRoot)('refuses a read-only folder, and one it cannot create, saying what to do', () => {
    const parent = tempDir();
    const readOnly = join(parent, 'data');
    mkdirSync(readOnly, { mode: 0o500 });
    try {
      expect(refusal(readOnly).message).toMatch(
        new RegExp(`^The data folder ${readOnly} is read-only for you.*chmod u\\+rwx.*--data-dir`),
      );
      const inside = join(readOnly, 'asset-studio');
      expect(refusal(inside).message).toMatch(
        new RegExp(
          `^The data folder ${inside} cannot be created: you may not write in ${readOnly} \\(permission denied\\)`,
        ),
      );
      expect(existsSync(inside)).toBe(false);
    } finally {
      chmodSync(readOnly, 0o700);
    }
  });
});
