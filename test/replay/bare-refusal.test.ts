// A 400 whose message only says to try again (issue #32 item 4): the vendor's own evaluation scripts retry it
// ("CSM API sometimes returns 400 for rate limits without clear keywords"). A read is retried with backoff; a
// create is never sent a second time by the client (it may have been made): the journal keeps it as
// submission unknown, for reconcile. If it keeps failing, the user is told what it is.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { isBareRefusal, ServiceResponseError } from '../../main/api/errors.ts';
import { SendingCreates } from '../../main/app/create-job.ts';
import { createServices, type Services } from '../../main/app/services.ts';
import { DEFAULT_TIMING, scaleTiming } from '../../main/jobs/schedule.ts';
import { tempDataDir } from '../cli/run-cli.ts';
import { REPLAY_KEY, type ReplayServer, startReplay } from './replay-server.ts';

const BARE = { error: 'Bad Request', message: 'Something went wrong, please try again', statusCode: 400 };

let replay: ReplayServer;
beforeEach(async () => {
  replay = await startReplay();
});
afterEach(() => replay.close());

const client = () => new ServiceClient({ baseUrl: replay.url, legacyBaseUrl: replay.url, apiKey: REPLAY_KEY });

describe('a 400 that only says "try again"', () => {
  it('is told apart from a 400 with a reason', () => {
    for (const text of ['Something went wrong, please try again', 'Please try again later.', 'try again'])
      expect(isBareRefusal(400, text), text).toBe(true);
    for (const text of ['image_url must be a URL, try again', 'Insufficient credits', undefined])
      expect(isBareRefusal(400, text), String(text)).toBe(false);
    expect(isBareRefusal(500, 'Something went wrong, please try again')).toBe(false);
  });

  it('a read is retried with backoff and succeeds', async () => {
    replay.override({ method: 'GET', path: '/image-to-3d-sessions', status: 400, body: BARE, times: 2 });
    const list = await client().listImageTo3d({ limit: 5 });
    expect(list.results).toBeDefined();
    expect(replay.requests.filter((r) => r.path === '/image-to-3d-sessions')).toHaveLength(3);
  });

  it('a read that keeps failing says what it is, not "check the values you gave"', async () => {
    replay.override({ method: 'GET', path: '/tti-sessions/SESSION_1', status: 400, body: BARE, times: 50 });
    const error = await client()
      .getTextToImage('SESSION_1', { maxAttempts: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceResponseError);
    expect((error as Error).message).toContain('refused without a reason; it does this when busy');
    expect((error as Error).message).not.toContain('Check the values you gave');
  });

  describe('a create', () => {
    let services: Services;
    beforeEach(async () => {
      services = await createServices(
        { dataDir: tempDataDir(), baseUrl: replay.url, legacyBaseUrl: replay.url, apiKey: REPLAY_KEY },
        { timing: scaleTiming(DEFAULT_TIMING, 1000), notice: () => undefined },
      );
    });
    afterEach(() => services.close());

    it('is sent once, and kept as submission unknown for reconcile (never a second create)', async () => {
      replay.override({ method: 'POST', path: '/tti-sessions', status: 400, body: BARE, times: 5 });
      const outcome = await new SendingCreates()
        .create(services, { endpoint: 'createTextToImage', body: { prompt: 'a lamp' } })
        .catch((e: unknown) => e);
      expect(replay.requests.filter((r) => r.method === 'POST' && r.path === '/tti-sessions')).toHaveLength(1);
      const jobs = services.store.jobs.list();
      expect(jobs.map((j) => j.state)).toEqual(['submission_unknown']);
      expect(outcome).toBeDefined();
    });
  });
});
