// The data folder of a user who may not write in it: the CLI as another user (`nobody` when the tests run as
// root), which only a child process can be.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDataDir, type CliResult } from '../../cli/run-cli.ts';
import { LAUNCHER, outputOf } from './spawn-cli.ts';

describe('the data folder (CLI as another user)', () => {
  const posix = process.platform !== 'win32';

  /** The CLI as a user who may not write `dir`: `nobody` when the tests run as root (root may write anywhere). */
  function runReadOnly(args: string[], dataDir: string): Promise<CliResult> {
    const asRoot = process.getuid?.() === 0;
    const user = asRoot ? { uid: 65534, gid: 65534 } : {};
    return outputOf(
      spawn(process.execPath, [LAUNCHER, ...args], {
        env: cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir, HOME: dirname(dataDir) }),
        stdio: ['ignore', 'pipe', 'pipe'],
        ...user,
      }),
    );
  }

  it.skipIf(!posix)(
    'a read-only data folder is exit 2, saying so, and nothing is written',
    async () => {
      const parent = tempDataDir();
      chmodSync(parent, 0o755); // reachable by the unprivileged user
      const readOnly = join(parent, 'data');
      mkdirSync(readOnly, { mode: 0o555 });
      chmodSync(readOnly, 0o555);
      const result = await runReadOnly(['jobs'], readOnly);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: The data folder ${readOnly} is read-only for you; Asset Studio needs to read and write in it\\. .*--data-dir`,
        ),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/EACCES|EPERM|SQLite|readonly database/);
      const inside = join(readOnly, 'asset-studio');
      const create = await runReadOnly(['jobs'], inside);
      expect(create.code).toBe(2);
      expect(create.stderr).toMatch(
        new RegExp(
          `^error: The data folder ${inside} cannot be created: you may not write in ${readOnly} \\(permission denied\\)`,
        ),
      );
      expect(readdirSync(readOnly)).toEqual([]);
    },
    90_000,
  ); // several runs of the CLI
});
