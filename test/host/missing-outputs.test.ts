// The app downloads, when it starts, the outputs of succeeded jobs that are not all cached (the app quit
// during the downloads, or one failed): main/app/pull-outputs.ts pullMissingOutputs, called by the app
// session. Before, downloadMissing (main/cache/auto-download.ts) said so but nothing called it.
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../shared/bridge/contract.ts';
import type { BridgeService } from '../../main/host/bridge-service.ts';
import { databasePath } from '../../main/store/database.ts';
import { openTestBridge } from './bridge.ts';
import { tempDir, until } from './helpers.ts';

/** How long a wait may take before the test fails (a cap, not a speed bar). */
const WAIT_MS = 30_000;
const data = tempDir('missing-outputs');
afterAll(() => data.remove());

const open = () => openTestBridge(data.path);

const jobOf = async (bridge: BridgeService, id: string) =>
  COMMANDS['jobs.get'].output.parse(await bridge.call('jobs.get', { id }));
const outputsOf = async (bridge: BridgeService, sessionId: string) =>
  COMMANDS['cache.outputs'].output.parse(await bridge.call('cache.outputs', { sessionId })).outputs;

describe('outputs not all cached when the app starts', () => {
  it('are downloaded at start, and the job is marked fetched', async () => {
    const first = await open();
    const created = COMMANDS.create.output.parse(
      await first.call('create', { endpoint: 'createTextToImage', body: { prompt: 'a brass lantern' } }),
    );
    const id = created.job!.id;
    const done = await until(
      async () => {
        const job = await jobOf(first, id);
        return job.state === 'succeeded' && job.outputsFetched ? job : undefined;
      },
      WAIT_MS,
      'the job and its downloads',
    );
    await first.close();

    // As if the app had quit before its downloads: the job not fetched, nothing of its session cached.
    const db = new DatabaseSync(databasePath(data.path));
    db.prepare('UPDATE jobs SET outputs_fetched = 0 WHERE id = ?').run(id);
    db.prepare('DELETE FROM cache_entries WHERE session_id = ?').run(done.remoteId);
    db.close();

    const second = await open();
    try {
      expect((await jobOf(second, id)).outputsFetched).toBe(false);
      const image = await until(
        async () => (await outputsOf(second, done.remoteId!)).find((o) => o.kind === 'image' && o.state === 'complete'),
        WAIT_MS,
        'the image downloaded at start',
      );
      expect(image.url).toBeTruthy();
      await until(
        async () => ((await jobOf(second, id)).outputsFetched ? true : undefined),
        WAIT_MS,
        'the job marked fetched',
      );
    } finally {
      await second.close();
    }
  });
});
