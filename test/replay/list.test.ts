// The list of image-to-3D sessions under both readings of `page` (issue #22): SERVICE_API.md calls it "the
// number of records to skip", the vendor's examples send page=1 for the first page. The answer's `skip` says
// which records came back; the lost-create search finds the newest session either way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { listPageNumber, listPages } from '../../main/jobs/list-pages.ts';
import { tempDataDir } from '../cli/run-cli.ts';
import { cli } from './helpers.ts';
import { type PageReading, REPLAY_KEY, type ReplayServer, startReplay } from './replay-server.ts';

let replay: ReplayServer;
beforeEach(async () => {
  replay = await startReplay();
});
afterEach(async () => {
  await replay.close();
});

/** `n` older sessions of someone else's, created an hour ago and before, newest first. */
function others(n: number): void {
  const listed = replay.fixture('image-to-3d-list').data.results[0];
  for (let i = 0; i < n; i++)
    replay.listed.push({
      ...listed,
      session_code: `SESSION_1700000000_${String(i).padStart(7, '0')}`,
      image_url: `${replay.files}/uploaded/other-${i}.png?sp=r&sig=x`,
      created_at: new Date(Date.now() - 3_600_000 - i * 60_000).toISOString(),
    });
}

describe.each<PageReading>(['page-number', 'records-skipped'])('a service reading page as %s', (reading) => {
  it('is walked from the newest session, each record once', async () => {
    replay.pageReading = reading;
    others(7);
    const client = new ServiceClient({ baseUrl: replay.url, apiKey: REPLAY_KEY });
    try {
      const seen: string[] = [];
      for await (const page of listPages(client, { limit: 3, maxPages: 10 })) {
        expect(page.reading).toBe(reading);
        seen.push(...page.list.results.map((s) => s.session_code));
      }
      expect(seen).toEqual(replay.listed.map((s) => s.session_code));
    } finally {
      await client.close();
    }
    const pages = replay.apiRequests().map((r) => r.query.get('page'));
    expect(pages).toEqual(reading === 'page-number' ? ['1', '2', '3'] : ['1', '0', '3', '6']);
  });

  it('a lost create is found: the newest session, reconciled', async () => {
    replay.pageReading = reading;
    others(4);
    replay.override({ method: 'POST', path: '/image-to-3d-sessions', drop: true });
    const got = await cli(replay, ['create-3d', 'https://example.com/lost-robot.png', '--json']);
    expect(got.stderr).toMatch(/its answer was lost, and the session it created was found/);
    expect(got.code).toBe(0);
    const newest = String(replay.listed[0]!.session_code);
    expect((JSON.parse(got.stdout) as { data: { session_code: string } }).data.session_code).toBe(newest);
  });

  it('`reconcile` finds it later, when the search right after the lost answer could not list', async () => {
    replay.pageReading = reading;
    others(4);
    const dataDir = tempDataDir();
    replay.override({ method: 'POST', path: '/image-to-3d-sessions', drop: true });
    replay.override({
      method: 'GET',
      path: '/image-to-3d-sessions',
      query: (q) => q.get('limit') === '100',
      status: 400,
      body: { error: 'Bad Request', message: 'listing is unavailable', statusCode: 400 },
    });
    const lost = await cli(replay, ['create-3d', 'https://example.com/lost-robot.png'], dataDir);
    expect(lost.code).toBe(3);
    expect(lost.stderr).toMatch(/was lost .* It was NOT sent again/);
    const newest = String(replay.listed[0]!.session_code);
    const reconciled = await cli(replay, ['reconcile', '--json'], dataDir);
    expect(reconciled.code).toBe(0);
    const [result] = JSON.parse(reconciled.stdout) as { outcome: string; reconciled: boolean }[];
    expect(result).toMatchObject({ outcome: `reconciled with ${newest}`, reconciled: true });
    const jobs = JSON.parse((await cli(replay, ['jobs', '--json'], dataDir)).stdout) as { remoteId: string }[];
    expect(jobs.map((j) => j.remoteId)).toEqual([newest]);
    expect(replay.apiRequests().filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it("the app's page N holds the records of page N (the page's session list)", async () => {
    replay.pageReading = reading;
    others(7);
    const client = new ServiceClient({ baseUrl: replay.url, apiKey: REPLAY_KEY });
    try {
      for (const n of [1, 2, 3]) {
        const page = await listPageNumber(client, n, 3);
        expect(page.page).toBe(n);
        expect(page.results.map((s) => s.session_code)).toEqual(
          replay.listed.slice((n - 1) * 3, n * 3).map((s) => s.session_code),
        );
      }
    } finally {
      await client.close();
    }
  });

  it('list shows which records came back', async () => {
    replay.pageReading = reading;
    others(5);
    const got = await cli(replay, ['list', '--limit', '2', '--page', '2']);
    expect(got.code).toBe(0);
    const first = 3; // the second page of 2 (records 3-4), or 2 records skipped (records 3-4): the answer's skip tells
    expect(got.stdout).toContain(`(sessions ${first}–${first + 1} of 5)`);
    expect(got.stdout).toContain(String(replay.listed[first - 1]!.session_code));
  });
});
