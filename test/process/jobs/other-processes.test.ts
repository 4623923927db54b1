// Two processes on one data folder: the web host (the app) follows live the jobs the CLI creates and
// reads, and the two never read the same due job twice (the read is claimed in the database).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../shared/bridge/contract.ts';
import { openDatabase } from '../../../main/store/database.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { spawnCli as runCli } from '../cli/spawn-cli.ts';
import { realFixture } from '../../fixtures.ts';
import { tempDir } from '../../helpers.ts';
import { recordEvents, until } from '../../host/helpers.ts';
import { startTestHost } from '../../host/web-host-client.ts';

const CHAIR = realFixture('images', 'chair.png');

describe('jobs of another process on the same data folder', () => {
  it("a job the CLI creates and waits for shows in a running web host's events, with its progress and its end", async () => {
    const dataDir = tempDir('asset-studio-other-processes-');
    const host = await startTestHost(dataDir, { engineSpeed: 10 });
    const seen = recordEvents(host.bridge);
    try {
      // The CLI uses the host's engine (its address is in the data folder) and its own tracker.
      const cli = await runCli(
        ['create-3d', CHAIR, '--wait', '--engine-speed', '10'],
        cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }),
      );
      expect(cli.code, cli.stderr).toBe(0);
      const session = /SESSION_\w+/.exec(cli.stdout)?.[0];
      expect(session).toBeDefined();
      const ofJob = () =>
        seen.events
          .filter((e) => e.event === 'job' && (e.payload as JobView).remoteId === session)
          .map((e) => e.payload as JobView);
      const end = await until(() => ofJob().find((j) => j.final), 30_000, "the CLI's job to end in the host's events");
      expect(end.state).toBe('succeeded');
      const views = ofJob();
      expect(views[0]!.final).toBe(false); // seen while it ran, not only at its end
      expect(views.some((j) => j.state === 'running' && (j.percent ?? 0) > 0 && (j.percent ?? 0) < 100)).toBe(true);
      // The host's library lists it too.
      const listed = (await host.bridge.call('jobs.list', {})) as { jobs: JobView[] };
      expect(listed.jobs.map((j) => j.remoteId)).toContain(session);
    } finally {
      seen.stop();
      await host.close();
    }
  });

  it('a job the app creates is followed live by a CLI watch on the same folder, to its end', async () => {
    const dataDir = tempDir('asset-studio-other-processes-');
    const host = await startTestHost(dataDir, { engineSpeed: 10 }, { port: 0 });
    try {
      const made = (await host.bridge.call('create', {
        endpoint: 'createImageTo3d',
        body: { image_url: `data:image/png;base64,${readFileSync(CHAIR).toString('base64')}` },
        label: 'from the app',
      })) as { job: JobView };
      const cli = await runCli(['watch', '--engine-speed', '10'], cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }));
      expect(cli.code, cli.stderr).toBe(0);
      const lines = cli.stderr.split('\n').filter((l) => l.startsWith(made.job.remoteId!));
      expect(
        lines.some((l) => /running\s+\[#*-*\]\s+([1-9]|[1-9]\d)%/.test(l)),
        cli.stderr,
      ).toBe(true);
      expect(lines.at(-1)).toMatch(/succeeded\s+\[#+\] 100%/);
    } finally {
      await host.close();
    }
  });

  it('a due read is taken by one process only: the second one is told it is no longer due', () => {
    const path = join(tempDir('asset-studio-other-processes-'), 'claim.db');
    const one = openDatabase(path);
    const two = openDatabase(path);
    try {
      const job = one.jobs.insert({
        kind: 'image_to_3d',
        label: 'x',
        remoteId: 'SESSION_x',
        now: 1000,
        nextPollAt: 1000,
      });
      expect(one.jobs.due(2000, 10).map((j) => j.id)).toEqual([job.id]);
      expect(two.jobs.due(2000, 10).map((j) => j.id)).toEqual([job.id]);
      expect(one.jobs.markPolling(job.id, 2000, 32_000)).toBe(true);
      expect(two.jobs.markPolling(job.id, 2000, 32_000)).toBe(false);
      // A watcher of the other process does not bring a claimed read forward; the holder renews its lease.
      two.jobs.pollBy(job.id, 3000);
      expect(two.jobs.due(20_000, 10)).toEqual([]);
      expect(one.jobs.renewClaim(job.id, 32_000, 50_000)).toBe(true);
      expect(two.jobs.markPolling(job.id, 40_000, 70_000)).toBe(false);
      // The lease runs out unrenewed (its holder died or was stopped): the read is due again and taken over,
      // and the old holder can no longer renew it.
      expect(two.jobs.due(50_000, 10).map((j) => j.id)).toEqual([job.id]);
      expect(two.jobs.markPolling(job.id, 50_000, 80_000)).toBe(true);
      expect(one.jobs.renewClaim(job.id, 50_000, 90_000)).toBe(false);
      // The other process's connection sees the commit: its data version moved.
      const before = two.jobs.dataVersion();
      one.jobs.schedule(job.id, 5000, 2000);
      expect(two.jobs.dataVersion()).not.toBe(before);
      expect(one.jobs.dataVersion()).toBe(one.jobs.dataVersion());
    } finally {
      one.close();
      two.close();
    }
  });
});
