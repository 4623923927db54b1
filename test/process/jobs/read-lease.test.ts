// A reader of the data folder that stops while it holds a job's read claim (kill -9, SIGSTOP) never leaves the
// job unread for ever: its claim is a lease that runs out, and a `wait` already running on the same folder takes
// the read over and finishes the job (issue #26, item 10).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDataFolderEngine } from '../../../main/app/services.ts';
import { CLAIM_LEASE_ENV } from '../../../main/jobs/read-claim.ts';
import { databasePath, openDatabase } from '../../../main/store/database.ts';
import { openDataFolder } from '../../../main/store/data-folder.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { tempDir, until } from '../../host/helpers.ts';
import { outputOf, spawnCli, startCli } from '../cli/spawn-cli.ts';

const CHAIR = new URL('../../../../shared/fixtures/real/images/chair.png', import.meta.url).pathname;
const HOLDER = new URL('./claim-holder.ts', import.meta.url).pathname;
const SPEED = ['--engine-speed', '3'];
const data = tempDir('read-lease');
afterAll(() => data.remove());

/** A data folder whose engine this test process runs (so it outlives the CLIs), with one job made by the CLI. */
async function folderWithJob(name: string, leaseMs: number) {
  const dataDir = join(data.path, name);
  openDataFolder(dataDir, { notice: () => undefined });
  const engine = await startDataFolderEngine(dataDir, { speed: 3 });
  const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir, [CLAIM_LEASE_ENV]: String(leaseMs) });
  const made = await spawnCli(['create-3d', CHAIR, ...SPEED], env);
  expect(made.code, made.stderr).toBe(0);
  const jobId = /job_\w+/.exec(made.stdout + made.stderr)?.[0];
  expect(jobId).toBeDefined();
  return { dataDir, engine, env, jobId: jobId! };
}

/** Starts the claim holder; resolves once it holds the read claim of the job. */
async function holdClaim(dataDir: string, jobId: string, leaseMs: number, renew: boolean): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [HOLDER, databasePath(dataDir), jobId, String(leaseMs), ...(renew ? ['renew'] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    if (out.includes('CLAIMED')) return child;
  }
  throw new Error(`the claim holder ended before it claimed the read: ${err}`);
}

async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

describe('the read claim of a job is a lease', () => {
  it('a holder killed with -9 while it holds the claim: the running wait takes the read over and the job finishes', async () => {
    const { dataDir, engine, env, jobId } = await folderWithJob('killed', 1_500);
    let waiting: ChildProcess | undefined;
    try {
      waiting = startCli(['wait', jobId, '--timeout', '45', ...SPEED], env);
      const result = outputOf(waiting);
      const holder = await holdClaim(dataDir, jobId, 1_500, false);
      await end(holder); // kill -9 with the claim held
      const done = await result;
      expect(done.code, done.stderr).toBe(0);
      const store = openDatabase(databasePath(dataDir));
      try {
        expect(store.jobs.require(jobId)).toMatchObject({ state: 'succeeded', final: true });
      } finally {
        store.close();
      }
    } finally {
      if (waiting) await end(waiting);
      await engine.close();
    }
  }, 90_000);

  it('a stopped holder (SIGSTOP) keeps the claim only while it renews it: its lease runs out and the wait finishes the job', async () => {
    const { dataDir, engine, env, jobId } = await folderWithJob('stopped', 3_000);
    let waiting: ChildProcess | undefined;
    let holder: ChildProcess | undefined;
    const store = openDatabase(databasePath(dataDir));
    try {
      waiting = startCli(['wait', jobId, '--timeout', '45', ...SPEED], env);
      const result = outputOf(waiting);
      holder = await holdClaim(dataDir, jobId, 3_000, true);
      // While its holder lives and renews it, the claim stays its own: the wait does not read the job.
      const claimed = store.jobs.require(jobId);
      const renewedOnce = await until(
        () => {
          const now = store.jobs.require(jobId);
          return now.nextPollAt! > claimed.nextPollAt! + 1_000 ? now : undefined;
        },
        20_000,
        'the holder to renew its claim',
      );
      expect(renewedOnce.pollCount).toBe(claimed.pollCount);
      expect(renewedOnce.final).toBe(false);
      holder.kill('SIGSTOP');
      const done = await result;
      expect(done.code, done.stderr).toBe(0);
      expect(store.jobs.require(jobId)).toMatchObject({ state: 'succeeded', final: true });
    } finally {
      store.close();
      if (holder) await end(holder);
      if (waiting) await end(waiting);
      await engine.close();
    }
  }, 90_000);
});
