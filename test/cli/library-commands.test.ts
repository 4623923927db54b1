// `asset-studio rename` and `delete` end to end: real child processes on one data folder, against the
// embedded engine (--json results, exit codes, the note that the service keeps its copy).
import { describe, expect, it } from 'vitest';
import { kettleJob, runCli } from './run-cli.ts';

describe('rename and delete', () => {
  it('renames a job (blank: back to its prompt) and deletes it from the library, saying the service keeps its copy', async () => {
    const { env, jobId } = await kettleJob({ finished: true });

    const renamed = await runCli(['rename', jobId, 'Hero kettle', '--json'], env);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ id: jobId, name: 'Hero kettle' });
    const back = await runCli(['rename', jobId, ''], env);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('text-to-image a copper kettle');

    const deleted = await runCli(['delete', jobId, '--json'], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({
      deleted: [jobId],
      note: expect.stringMatching(/service's copy is not deleted/),
    });
    expect(JSON.parse((await runCli(['jobs', '--json'], env)).stdout)).toEqual([]);

    const missing = await runCli(['delete', jobId, '--json'], env);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      error: { code: 'usage', message: expect.stringMatching(/is not a job of this app/) },
    });
    const noName = await runCli(['rename', 'job_x'], env);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toMatch(/missing argument: asset-studio rename <job> <name>/);
  });
});
