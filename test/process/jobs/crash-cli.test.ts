// Kill -9 the CLI while it waits for a job, start it again: the job completes and nothing is created twice.
import { describe, expect, it } from 'vitest';
import { realFixture } from '../../fixtures.ts';
import { cleanEnv, tempDataDir } from '../../cli/run-cli.ts';
import { spawnCli as runCli, startCli } from '../cli/spawn-cli.ts';

describe('crash recovery of the CLI', () => {
  it('a job survives kill -9 of the waiting CLI and completes on the next run', async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const speed = ['--engine-speed', '20'];
    const child = startCli(['create-3d', realFixture('images', 'robot.png'), '--wait', ...speed], env);
    // The first progress line on stderr (after the price line, printed before sending) means the create was
    // answered and the CLI is waiting.
    await new Promise<void>((resolve, reject) => {
      let text = '';
      child.stderr!.on('data', (d) => {
        text += String(d);
        if (text.split('\n').some((line) => line !== '' && !line.startsWith('Costs '))) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the CLI ended (${code}) before it waited`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    const before = JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as { state: string; final: boolean }[];
    expect(before).toHaveLength(1);
    expect(before[0]!.final).toBe(false);

    const watch = await runCli(['watch', '--json', ...speed], env);
    expect(watch.code).toBe(0);
    const jobs = JSON.parse(watch.stdout) as { state: string; remoteId: string }[];
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.state).toBe('succeeded');

    const list = JSON.parse((await runCli(['list', '--json', ...speed], env)).stdout) as {
      totalResults: number;
      results: { session_code: string }[];
    };
    expect(list.totalResults).toBe(1); // created once, never twice
    expect(list.results[0]!.session_code).toBe(jobs[0]!.remoteId);
  });
});
