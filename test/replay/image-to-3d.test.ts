// Image to 3D as the real service answers it (issue #22): the older-form session (status and spins, no
// session_status) at read and at create, the vendor's current-form example, the lifecycle the official SDK
// waits through (training_preview included), and a status this version does not know.
import { describe, expect } from 'vitest';
import { tempDataDir } from '../cli/run-cli.ts';
import { cli, it } from './helpers.ts';
import { imageTo3dSession } from '../../shared/contract/image-to-3d.ts';
import { jobStatus } from '../../shared/kinds/index.ts';
import { OLDER_LIFECYCLE, REPLAY_KEY } from './replay-server.ts';

describe('an image-to-3D session read with GET /image-to-3d-sessions/<code>', () => {
  it('in the older form (status and spins, no session_status): shown at every step up to preview_done', async ({
    replay,
  }) => {
    const code = replay.addSession(replay.fixture('image-to-3d-get-older').data, OLDER_LIFECYCLE);
    const seen: string[] = [];
    for (let i = 0; i < OLDER_LIFECYCLE.length; i++) {
      const got = await cli(replay, ['get', code]);
      expect(got.stderr).toBe('');
      expect(got.code).toBe(0);
      seen.push(got.stdout.split('\n')[0]!);
      expect(got.stdout).toContain(`session_code: ${code}`);
      expect(got.stdout).toMatch(/spins: \n {2}- U0\.png http:\/\/127\.0\.0\.1:\d+\/blob\/.+U0\.png\?sp=r&st=/);
    }
    expect(seen).toEqual([
      'state: running (spin_generate_processing)',
      'state: succeeded (spin_generate_done)',
      'state: running (training_preview)',
      'state: succeeded (preview_done)',
    ]);
    const json = JSON.parse((await cli(replay, ['get', code, '--json'])).stdout) as Record<string, unknown>;
    expect(json.status).toBe('preview_done');
    expect(json.session_status).toBeUndefined(); // shown as the service said it, not made up
    expect(json.preview_mesh_url_glb).toMatch(/\/preview\/mesh\.glb\?sp=r&/);
  });

  it("in the vendor's current form (the documentation's example): complete, 100%", async ({ replay }) => {
    const code = replay.addSession(replay.fixture('image-to-3d-get-current').data);
    const got = await cli(replay, ['get', code]);
    expect(got.code).toBe(0);
    expect(got.stdout.split('\n')[0]).toBe('state: succeeded (complete, 100%)');
    expect(got.stdout).toContain('geometry_model: turbo');
  });

  it('shows a status this version does not know by its own text, and keeps following the job', async ({ replay }) => {
    replay.createAnswer = 'current';
    replay.createLifecycle = [
      { session_status: 'texturing_mesh', percent_done: 40 },
      { session_status: 'texturing_mesh', percent_done: 70 },
      { session_status: 'complete', percent_done: 100 },
    ];
    const dataDir = tempDataDir();
    const created = await cli(replay, ['create-3d', 'https://example.com/chair.png', '--json'], dataDir);
    expect(created.code).toBe(0);
    const code = (JSON.parse(created.stdout) as { data: { session_code: string } }).data.session_code;
    const got = await cli(replay, ['get', code], dataDir);
    expect(got.stdout.split('\n')[0]).toBe(
      'state: texturing_mesh (a status this version does not know; still followed, 40%)',
    );
    const waited = await cli(replay, ['wait', code, '--timeout', '30'], dataDir);
    expect(waited.stderr).not.toMatch(/\bunknown\b/);
    expect(waited.code).toBe(0);
    const jobs = JSON.parse((await cli(replay, ['jobs', '--json'], dataDir)).stdout) as {
      remoteId: string;
      state: string;
    }[];
    expect(jobs.find((j) => j.remoteId === code)?.state).toBe('succeeded');
  });
});

describe('POST /image-to-3d-sessions answered in the older form (status, no session_status)', () => {
  it('takes its session_code: the job is followed, not left submission_unknown', async ({ replay }) => {
    const dataDir = tempDataDir();
    const created = await cli(replay, ['create-3d', 'https://example.com/chair.png', '--json'], dataDir);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout) as { jobId: string; data: { session_code: string; status: string } };
    expect(out.data.status).toBe('spin_generate_processing');
    expect(out.data.session_code).toMatch(/^SESSION_/);
    // One create, no search of the list for a lost answer.
    expect(replay.apiRequests().filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(replay.apiRequests().some((r) => r.path === '/image-to-3d-sessions' && r.query.get('limit') === '100')).toBe(
      false,
    );
    const jobs = JSON.parse((await cli(replay, ['jobs', '--json'], dataDir)).stdout) as {
      id: string;
      remoteId: string;
      state: string;
    }[];
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ id: out.jobId, remoteId: out.data.session_code });
    expect(jobs[0]!.state).not.toBe('submission_unknown');
  });

  it("is read by the job's status rules at every step of the older lifecycle (what the tracker polls)", async ({
    replay,
  }) => {
    const created = await cli(replay, ['create-3d', 'https://example.com/chair.png', '--json']);
    const code = (JSON.parse(created.stdout) as { data: { session_code: string } }).data.session_code;
    const states: string[] = [];
    for (let i = 0; i < OLDER_LIFECYCLE.length; i++) {
      const read = await fetch(`${replay.url}/image-to-3d-sessions/${code}`, { headers: { 'x-api-key': REPLAY_KEY } });
      const body = (await read.json()) as { data: unknown };
      const session = imageTo3dSession.parse(body.data); // the schema at the boundary accepts it
      const s = jobStatus({ kind: 'image_to_3d', id: code }, session);
      states.push(`${s.state}${s.final ? ' (final)' : ''}`);
    }
    expect(states).toEqual(['running', 'succeeded (final)', 'running', 'succeeded (final)']);
  });
});
