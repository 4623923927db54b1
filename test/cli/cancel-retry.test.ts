// `asset-studio cancel` and `retry` end to end: real child processes on one data folder, against the
// embedded engine, with the CLI's conventions (--json results and errors, exit codes, --wait).
import { describe, expect, it } from 'vitest';
import { cleanEnv, kettleJob, runCli, tempDataDir } from './run-cli.ts';

interface JsonJob {
  id: string;
  state: string;
  rawStatus: string;
  final: boolean;
  label: string;
  error: string | null;
}

describe('cancel and retry', () => {
  it('stops following a job, refuses to stop it twice, and sends it again once (exit codes, --json, --wait)', async () => {
    const { env, jobId } = await kettleJob();

    const cancelled = await runCli(['cancel', jobId, '--json'], env);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({
      id: jobId,
      state: 'failed',
      rawStatus: 'cancelled_here',
      final: true,
      error: expect.stringMatching(/may still finish there/),
    });

    const again = await runCli(['cancel', jobId, '--json'], env);
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stdout)).toEqual({
      error: { code: 'conflict', exitCode: 2, message: expect.stringMatching(/has already ended .*nothing to cancel/) },
    });
    expect(again.stderr).toMatch(/^error: "text-to-image a copper kettle" has already ended/);

    const retried = await runCli(['retry', jobId, '--wait', '--json', '--engine-speed', '2000'], env);
    expect(retried.code, retried.stderr).toBe(0);
    const first = JSON.parse(retried.stdout) as { operationId: string; job: JsonJob };
    expect(first.operationId).toBe(`${jobId}_retry_1`);
    expect(first.job).toMatchObject({ state: 'succeeded', label: 'text-to-image a copper kettle' });
    expect(first.job.id).not.toBe(jobId);

    // The first retry made a job that succeeded: retrying the same job again answers it, nothing is sent.
    const replayed = await runCli(['retry', jobId], env);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toMatch(/succeeded .*text-to-image a copper kettle/);
    expect(replayed.stderr).toContain(`Operation ${jobId}_retry_1 replayed: nothing new was sent.`);

    // One after another: CLI processes starting at once on one data folder may race for its engine.
    const succeeded = await runCli(['retry', first.job.id, '--json'], env);
    const unknown = await runCli(['retry', 'job_missing', '--json'], env);
    const missing = await runCli(['cancel'], env);
    expect(succeeded.code).toBe(2);
    expect(JSON.parse(succeeded.stdout)).toMatchObject({
      error: {
        code: 'conflict',
        message: expect.stringMatching(/is completed: only a failed, cancelled or abandoned job can be retried/),
      },
    });
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      error: { code: 'usage', message: expect.stringMatching(/"job_missing" is not a job of this app/) },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing argument: asset-studio cancel <job>/);

    const jobs = JSON.parse((await runCli(['jobs', '--json'], env)).stdout) as JsonJob[];
    expect(jobs.map((j) => j.id).sort()).toEqual([jobId, first.job.id].sort());
  });

  it('has its own help, with --wait for retry', async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const [retry, cancel, general] = await Promise.all([
      runCli(['retry', '--help'], env),
      runCli(['help', 'cancel'], env),
      runCli(['help'], env),
    ]);
    expect(retry.stdout).toMatch(/^Usage: asset-studio retry <job> \[options\]/);
    expect(retry.stdout).toMatch(/--wait/);
    expect(cancel.stdout).toMatch(/^Usage: asset-studio cancel <job>/);
    expect(cancel.stdout).not.toMatch(/--wait/);
    expect(general.stdout).toMatch(/\n {2}cancel +Stop following a job here/);
    expect(general.stdout).toMatch(/\n {2}retry +Send a failed, cancelled or abandoned job's request again/);
  });
});
