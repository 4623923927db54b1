// A stopped owner of the data folder's engine (another asset-studio process, here `asset-studio engine`,
// stopped with SIGSTOP): its socket still accepts connections, but it never answers. A CLI command does not wait
// for its whole time limit on it: the owner is found stopped and not answering within a few seconds, an engine
// is started in the command's process on the same folder, and the command ends with its result; the folder's
// lock and address are then handed back to the stopped owner, which, once continued, serves the folder again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../../cli/run-cli.ts';
import { tempDir } from '../../host/helpers.ts';
import { spawnCli, startCliEngine } from '../cli/spawn-cli.ts';

const data = tempDir('engine-owner-stopped');
afterAll(() => data.remove());

describe('a CLI command when the process running the engine is stopped', () => {
  it('starts an engine of its own, finishes with its result, and hands the folder back', async () => {
    const dataDir = join(data.path, 'folder');
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const { child: owner, url: ownerUrl } = await startCliEngine([], env);
    const lock = join(dataDir, 'engine', 'engine.lock');
    const address = join(dataDir, 'engine', 'address.json');
    const addressBefore = readFileSync(address, 'utf8');
    const lockBefore = readFileSync(lock, 'utf8'); // `<pid> <token>` (main/durable/pid-lock.ts)
    try {
      expect(lockBefore.split(' ')[0]).toBe(String(owner.pid));
      // Answering, it is used as it is.
      const first = await spawnCli(['list', '--json'], env);
      expect(first.code, first.stderr).toBe(0);

      owner.kill('SIGSTOP');
      const listed = await spawnCli(['list', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual(JSON.parse(first.stdout)); // the folder's sessions, from its own engine
      // The folder is the stopped owner's again: its lock and its address as it left them.
      expect(readFileSync(lock, 'utf8')).toBe(lockBefore);
      expect(readFileSync(address, 'utf8')).toBe(addressBefore);

      // Continued, it answers and serves the folder again.
      owner.kill('SIGCONT');
      const again = await spawnCli(['list', '--json'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(readFileSync(address, 'utf8'))).toMatchObject({ pid: owner.pid, url: ownerUrl });
    } finally {
      owner.kill('SIGCONT');
      owner.kill('SIGKILL');
    }
  }, 120_000);
});
