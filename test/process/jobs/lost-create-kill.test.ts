// Kill -9 the CLI while its create is on the wire: the engine (another process, over HTTP) made and charged the
// session, but no answer was read. The journal row, left `pending` by a writer that is gone, becomes a
// `submission_unknown` job the library shows; `reconcile` finds the session at the engine and the job becomes it;
// the create was sent once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realFixture } from '../../fixtures.ts';
import { cleanEnv, tempDataDir } from '../../cli/run-cli.ts';
import { spawnCli, startCli, startCliEngine } from '../cli/spawn-cli.ts';
import type { ChildProcess } from 'node:child_process';

interface JobJson {
  id: string;
  state: string;
  remoteId: string | null;
  label: string;
  operationId: string | null;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function engineGet(url: string, key: string): Promise<any> {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  return res.json();
}

describe('a create whose CLI is killed while it is on the wire', () => {
  it('becomes a submission_unknown job that reconcile attaches to the session the engine made, sent once', async () => {
    const dataDir = tempDataDir();
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    // The engine answers a create a minute after it made (and charged) the session: the CLI dies before the answer.
    const { child: engine, url } = await startCliEngine(['--engine-speed', '50'], {
      ...env,
      ASSET_STUDIO_ENGINE_FAULTS: JSON.stringify([
        { kind: 'slow', delayMs: 60_000, match: { endpoint: 'createImageTo3d' } },
      ]),
    });
    children.push(engine);
    const key = readFileSync(join(dataDir, 'engine-key'), 'utf8').trim();

    const cli = startCli(['create-3d', realFixture('images', 'robot.png')], env);
    children.push(cli);
    const exited = new Promise((resolve) => cli.once('exit', resolve));
    // The marker: the engine lists the session the create made (its answer is being held back).
    let code: string | undefined;
    for (let tries = 0; code === undefined; tries++) {
      if (cli.exitCode !== null || tries > 600) throw new Error(`the CLI ended (${cli.exitCode}) before its create`);
      const list = await engineGet(`${url}/image-to-3d-sessions`, key);
      code = list.data?.results?.[0]?.session_code;
      if (code === undefined) await new Promise((r) => setTimeout(r, 50));
    }
    cli.kill('SIGKILL');
    await exited;

    const jobs = JSON.parse((await spawnCli(['jobs', '--json'], env)).stdout) as JobJson[];
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ state: 'submission_unknown', remoteId: null, label: 'create-3d robot.png' });

    const reconciled = await spawnCli(['reconcile', '--json'], env);
    expect(reconciled.code, reconciled.stderr).toBe(0);
    expect(JSON.parse(reconciled.stdout)).toEqual([
      expect.objectContaining({
        operationId: jobs[0]!.operationId,
        reconciled: true,
        outcome: `reconciled with ${code}`,
        jobId: jobs[0]!.id,
      }),
    ]);

    const after = JSON.parse((await spawnCli(['jobs', '--json'], env)).stdout) as JobJson[];
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: jobs[0]!.id, remoteId: code });
    expect(after[0]!.state).not.toBe('submission_unknown');
    // One create reached the engine: paid once, never sent again.
    const faults = await engineGet(`${url}/__engine/faults`, key);
    expect(faults.data?.byEndpoint?.createImageTo3d ?? faults.byEndpoint?.createImageTo3d).toBe(1);
    expect((await engineGet(`${url}/image-to-3d-sessions`, key)).data.totalResults).toBe(1);
  });
});
