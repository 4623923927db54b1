// The app's own use cases (main/app/, main/jobs/) against the replay of the real service, in this process:
// what the desktop app and the web host run when a user creates from the page.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceResponseError } from '../../main/api/errors.ts';
import { SendingCreates } from '../../main/app/create-job.ts';
import { createServices, type Services } from '../../main/app/services.ts';
import { DEFAULT_TIMING, scaleTiming } from '../../main/jobs/schedule.ts';
import { tempDataDir } from '../cli/run-cli.ts';
import { REPLAY_KEY, type ReplayServer, SAS, startReplay } from './replay-server.ts';

let replay: ReplayServer;
let services: Services;
beforeEach(async () => {
  replay = await startReplay();
  services = await createServices(
    { dataDir: tempDataDir(), baseUrl: replay.url, legacyBaseUrl: replay.url, apiKey: REPLAY_KEY },
    { timing: scaleTiming(DEFAULT_TIMING, 1000), notice: () => undefined },
  );
});
afterEach(async () => {
  await services.close();
  await replay.close();
});

describe('creates from the app', () => {
  it('an image-to-3D create answered in the older form is followed to its end, labelled by the file name', async () => {
    const creates = new SendingCreates();
    const outcome = await creates.create(services, {
      endpoint: 'createImageTo3d',
      body: { image_url: `${replay.files}/uploaded/chair.png?${SAS}` },
    });
    expect(outcome.status).toBe('created');
    const job = outcome.job!;
    expect(job.label).toBe('chair.png');
    expect(job.remoteId).toMatch(/^SESSION_/);
    services.tracker.start();
    const [done] = await services.tracker.waitFor([job.id], AbortSignal.timeout(20_000));
    expect(done).toMatchObject({ state: 'succeeded', rawStatus: 'spin_generate_done', final: true });
  });

  it('a retopology of a signed GLB is labelled mesh.glb', async () => {
    const creates = new SendingCreates();
    const outcome = await creates.create(services, {
      endpoint: 'createRetopology',
      body: { type: 'retopology', input: { mesh: `${replay.files}/x/mesh.glb?${SAS}`, model: 'swift' } },
    });
    expect(outcome.job?.label).toBe('mesh.glb');
  });
});

describe('a 400 about a rate limit, met by the tracker', () => {
  it('is a rate limit: every request of the app pauses, as after a 429', async () => {
    const creates = new SendingCreates();
    const { job } = await creates.create(services, {
      endpoint: 'createTextToImage',
      body: { prompt: 'a lamp' },
    });
    expect(
      new ServiceResponseError({ endpoint: 'x', status: 400, idempotent: false, serviceMessage: 'Rate limit exceeded' })
        .rateLimited,
    ).toBe(true);
    replay.override({
      method: 'GET',
      path: `/tti-sessions/${job!.remoteId}`,
      status: 400,
      body: replay.fixture('error-400-rate-limit'),
      times: 10,
    });
    const before = Date.now();
    await services.tracker.refresh(job!.id).catch(() => undefined);
    expect(services.tracker.budget.pausedUntil).toBeGreaterThan(before);
  });
});
