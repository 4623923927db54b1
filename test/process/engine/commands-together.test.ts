// CLI commands started at the same moment on one data folder: one of them starts the folder's engine, the
// others wait for its address (it is starting) and use it; none fails "in use by another engine". The same when
// they find the folder's owner stopped and both would borrow it. And a lock file naming a live process that is
// not its owner (a `sleep` got the pid since) is taken over, not left to block every command.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processStart } from '../../../main/durable/process-identity.ts';
import { cleanEnv, tempDataDir } from '../../cli/run-cli.ts';
import { spawnCli, startCliEngine } from '../cli/spawn-cli.ts';

const both = (env: NodeJS.ProcessEnv) =>
  Promise.all([spawnCli(['list', '--json'], env), spawnCli(['list', '--json'], env)]);

describe('commands on one data folder at once', () => {
  it('ten pairs started together all succeed', async () => {
    const used = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    for (let pair = 0; pair < 10; pair++) {
      // Every other pair on a new folder (both make its key and race for its engine), the rest on one folder used before.
      const env = pair % 2 === 0 ? cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() }) : used;
      const results = await both(env);
      for (const r of results) expect(r.code, `pair ${pair}: ${r.stderr}`).toBe(0);
    }
  }, 300_000);

  it('two started together beside a stopped owner both succeed', async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const { child: owner } = await startCliEngine([], env);
    try {
      owner.kill('SIGSTOP');
      for (const r of await both(env)) expect(r.code, r.stderr).toBe(0);
    } finally {
      owner.kill('SIGCONT');
      owner.kill('SIGKILL');
    }
  }, 120_000);

  it.runIf(process.platform === 'linux')(
    'a lock naming a live process that is not its owner is taken over',
    async () => {
      const dataDir = tempDataDir();
      const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
      expect((await spawnCli(['jobs'], env)).code).toBe(0); // the folder, made
      const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
      try {
        const pid = sleeper.pid!;
        const [boot] = processStart(pid)!.split(':');
        // The lock of an engine that died, whose pid the system has given to `sleep` since: another start.
        const lock = join(dataDir, 'engine', 'engine.lock');
        writeFileSync(lock, `${pid} c0ffee ${boot}:1`);
        const listed = await spawnCli(['list', '--json'], env);
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stderr).not.toContain('in use by another engine');
        // The same lock as an older version wrote it (no start), written before `sleep` started.
        writeFileSync(lock, `${pid} c0ffee`);
        const longAgo = new Date(Date.parse('2001-01-01T00:00:00Z'));
        utimesSync(lock, longAgo, longAgo);
        const again = await spawnCli(['list', '--json'], env);
        expect(again.code, again.stderr).toBe(0);
        expect(existsSync(lock) && readFileSync(lock, 'utf8').startsWith(`${pid} `)).toBe(false); // released
      } finally {
        sleeper.kill('SIGKILL');
      }
    },
    120_000,
  );
});
