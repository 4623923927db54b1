// The web host started while a CLI command runs the data folder's embedded engine uses that engine; when the
// CLI ends (here killed -9), the host finds the engine gone, starts its own on the same data folder and goes on:
// the job it had under way and a job it creates afterwards both finish, their outputs downloaded (issue #26,
// item 11).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/bridge/contract.ts';
import { databasePath, openDatabase } from '../../../main/store/database.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { realFixture } from '../../fixtures.ts';
import { tempDir } from '../../helpers.ts';
import { startTestHost } from '../../host/web-host-client.ts';
import { startCliEngine } from '../cli/spawn-cli.ts';

const CHAIR = realFixture('images', 'chair.png');

describe('the web host when the process running its engine ends', () => {
  it('re-resolves the engine (starting its own) and still creates and finishes jobs', async () => {
    const dataDir = tempDir('asset-studio-engine-owner-exit-');
    const { child: cli, url: cliEngine } = await startCliEngine(
      ['--engine-speed', '10'],
      cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }),
    );
    const host = await startTestHost(dataDir, { engineSpeed: 10 });
    const create = async (label: string) =>
      (
        (await host.bridge.call('create', {
          endpoint: 'createImageTo3d',
          body: { image_url: `data:image/png;base64,${readFileSync(CHAIR).toString('base64')}` },
          label,
        })) as { job: JobView }
      ).job;
    const finished = async (id: string): Promise<JobView> => {
      const end = Date.now() + 60_000;
      for (;;) {
        const { jobs } = (await host.bridge.call('jobs.list', {})) as { jobs: JobView[] };
        const job = jobs.find((j) => j.id === id);
        if (job?.final && (job.state !== 'succeeded' || job.outputsFetched)) return job;
        if (Date.now() > end) throw new Error(`the job ${id} did not finish: ${JSON.stringify(job)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    try {
      const before = await create('made through the CLI engine');
      expect(JSON.stringify(before.result)).toContain(new URL(cliEngine).host); // the host uses the CLI's engine
      const exited = new Promise((resolve) => cli.once('exit', resolve));
      cli.kill('SIGKILL'); // its engine goes with it; its lock and address file stay behind
      await exited;
      const after = await create('made after the CLI ended');
      for (const job of [await finished(before.id), await finished(after.id)]) {
        expect(job, job.error ?? '').toMatchObject({ state: 'succeeded', outputsFetched: true });
      }
      // The outputs are in the cache, complete and on disk.
      const store = openDatabase(databasePath(dataDir));
      try {
        const glbs = store.cache.list().filter((e) => e.kind === 'glb');
        expect(glbs.map((e) => e.sessionId).sort()).toEqual([before.remoteId, after.remoteId].sort());
        for (const e of glbs) expect(e.state).toBe('complete');
      } finally {
        store.close();
      }
      // The engine now runs in the host's process: its address file names it.
      const address = JSON.parse(readFileSync(join(dataDir, 'engine', 'address.json'), 'utf8')) as { pid: number };
      expect(address.pid).toBe(process.pid);
    } finally {
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
      await host.close();
    }
    expect(existsSync(join(dataDir, 'engine', 'address.json'))).toBe(false); // closed with the host
  }, 120_000);
});
