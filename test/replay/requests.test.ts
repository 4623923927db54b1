// What the app sends, and what it does with the real service's refusals (issue #22): 402 (balance short),
// a 400 that speaks of a rate limit, a create whose answer is lost, a bad value refused before any request,
// and a preview by spin index that also names the spin's URL, as the official SDK does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../cli/run-cli.ts';
import { realFixture } from '../fixtures.ts';
import { cli } from './helpers.ts';
import { OLDER_LIFECYCLE, type ReplayServer, startReplay } from './replay-server.ts';

let replay: ReplayServer;
beforeEach(async () => {
  replay = await startReplay();
});
afterEach(async () => {
  await replay.close();
});

/** `get` of a finished session whose reads the service answers with a 400 of `body`, `times` times. */
async function getAnswered400(body: unknown, times = 1) {
  const code = replay.addSession(replay.fixture('image-to-3d-get-current').data);
  replay.override({ method: 'GET', path: `/image-to-3d-sessions/${code}`, status: 400, body, times });
  return { code, got: await cli(replay, ['get', code]) };
}

describe('refusals of the real service', () => {
  it('HTTP 402: says the balance is short and where to add credits, not "check the values"', async () => {
    replay.override({
      method: 'POST',
      path: '/image-to-3d-sessions',
      status: 402,
      body: replay.fixture('error-402-insufficient-credits'),
    });
    const got = await cli(replay, ['create-3d', 'https://example.com/chair.png']);
    expect(got.code).toBe(3);
    expect(got.stderr).toMatch(/answered HTTP 402 \(Payment Required: Insufficient credits\)/);
    expect(got.stderr).toMatch(/credit balance is too low.*nothing was made.*Add credits.*https:\/\/3d\.csm\.ai/);
    expect(got.stderr).not.toMatch(/check the values/i);
    // Refused, not lost: nothing is searched for, nothing is left to reconcile.
    expect(replay.apiRequests().filter((r) => r.query.get('limit') === '100')).toHaveLength(0);
  });

  it('a 400 whose message speaks of a rate limit is retried with backoff, like a 429', async () => {
    const { code, got } = await getAnswered400(replay.fixture('error-400-rate-limit'));
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
    expect(got.stdout.split('\n')[0]).toBe('state: succeeded (complete, 100%)');
    expect(replay.apiRequests().filter((r) => r.path === `/image-to-3d-sessions/${code}`)).toHaveLength(2);
  });

  it('a 400 about a rate limit that lasts is told as a rate limit', async () => {
    const { code, got } = await getAnswered400(replay.fixture('error-400-rate-limit'), 10);
    expect(got.code).toBe(3);
    expect(got.stderr).toMatch(/Too many requests: wait a moment and try again/);
    expect(got.stderr).not.toMatch(/check the values/i);
    expect(replay.apiRequests().filter((r) => r.path === `/image-to-3d-sessions/${code}`)).toHaveLength(4);
  });

  it('a 400 about anything else is still a bad request', async () => {
    const { code, got } = await getAnswered400({
      error: 'Bad Request',
      message: 'image_url is not a valid URL',
      statusCode: 400,
    });
    expect(got.code).toBe(3);
    expect(got.stderr).toMatch(/Check the values you gave/);
    expect(replay.apiRequests().filter((r) => r.path === `/image-to-3d-sessions/${code}`)).toHaveLength(1);
  });
});

describe('a create whose answer is lost', () => {
  it('is reconciled with the session the service made, and shown (no crash reading a null answer)', async () => {
    const dataDir = tempDataDir();
    replay.override({ method: 'POST', path: '/image-to-3d-sessions', drop: true });
    const got = await cli(replay, ['create-3d', 'https://example.com/lost-chair.png'], dataDir);
    expect(got.stderr).not.toMatch(/Cannot read properties/);
    expect(got.code).toBe(0);
    const code = String(replay.listed[0]!.session_code);
    expect(got.stderr).toContain(`its answer was lost, and the session it created was found at the service (${code})`);
    expect(got.stdout).toContain(`session_code: ${code}`);
    expect(got.stdout.split('\n')[0]).toMatch(/^state: /);
    const jobs = JSON.parse((await cli(replay, ['jobs', '--json'], dataDir)).stdout) as { remoteId: string }[];
    expect(jobs.map((j) => j.remoteId)).toEqual([code]);
    // Sent once: never again to avoid paying twice.
    expect(replay.apiRequests().filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('is reconciled in --json too, the session read back', async () => {
    replay.override({ method: 'POST', path: '/image-to-3d-sessions', drop: true });
    const got = await cli(replay, ['create-3d', 'https://example.com/lost-chair.png', '--json']);
    expect(got.code).toBe(0);
    const out = JSON.parse(got.stdout) as { data: { session_code: string; status: string } | null };
    expect(out.data?.session_code).toBe(replay.listed[0]!.session_code);
  });
});

describe('a bad value', () => {
  it('create-3d --geometry-model ultra is refused before anything is sent (not even the balance read)', async () => {
    const got = await cli(replay, ['create-3d', 'https://example.com/chair.png', '--geometry-model', 'ultra']);
    expect(got.code).toBe(2);
    expect(got.stderr).toMatch(/geometry_model.*must be one of "base", "turbo"/);
    expect(replay.requests).toEqual([]);
  });

  it('batch --geometry-model ultra too', async () => {
    const got = await cli(replay, ['batch', realFixture('images', 'chair.png'), '--geometry-model', 'ultra']);
    expect(got.code).toBe(2);
    expect(got.stderr).toMatch(/geometry_model.*must be one of "base", "turbo"/);
    expect(replay.requests).toEqual([]);
  });
});

describe('preview --spin-index N', () => {
  it("also sends selected_spin: the URL of that spin, read from the session's spins", async () => {
    const base = replay.fixture('image-to-3d-get-older').data;
    const code = replay.addSession(base, [{ status: 'spin_generate_done' }]);
    const got = await cli(replay, ['preview', code, '--spin-index', '2', '--json']);
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
    const sent = replay.apiRequests().find((r) => r.method === 'POST')!;
    expect(sent.path).toBe(`/image-to-3d-sessions/get-3d/preview/${code}`);
    expect(sent.body.selected_spin_index).toBe(2);
    expect(sent.body.selected_spin).toBe(base.spins[2].image_url);
    expect(sent.body.selected_spin).toMatch(/\/U2\.png\?sp=r&st=.*&sig=/);
  });

  it('keeps a --spin-url given by the user', async () => {
    const code = replay.addSession(replay.fixture('image-to-3d-get-older').data, OLDER_LIFECYCLE);
    const mine = 'https://example.com/my-view.png';
    const got = await cli(replay, ['preview', code, '--spin-index', '1', '--spin-url', mine]);
    expect(got.code).toBe(0);
    const sent = replay.apiRequests().filter((r) => r.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ selected_spin_index: 1, selected_spin: mine });
    expect(replay.apiRequests().some((r) => r.method === 'GET' && r.path === `/image-to-3d-sessions/${code}`)).toBe(
      false,
    );
  });
});
