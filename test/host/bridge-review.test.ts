// The game-ready commands through the bridge (#31): check.run against a profile (the saved default when none is
// named, the saved edits applied), job.setSize kept for the job and used by the next check, the review board's
// rows and approvals, the request a job was made with, and the target profiles saved in Settings (a bad edit
// refused, naming its field).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../shared/bridge/contract.ts';
import type { BridgeService } from '../../main/host/bridge-service.ts';
import type { BridgeFailure } from '../../main/host/errors.ts';
import { realFixture } from '../fixtures.ts';
import { fakeEncryptor, openTestBridge } from './bridge.ts';
import { tempDir } from './helpers.ts';

const data = tempDir('bridge-review');
let bridge: BridgeService;
let jobId: string;
let image: string;

const check = async (input: { jobId: string; profile?: string }) =>
  COMMANDS['check.run'].output.parse(await bridge.call('check.run', input));
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('it did not fail');
    },
    (e: unknown) => (e as BridgeFailure).error,
  );

beforeAll(async () => {
  bridge = await openTestBridge(data.path, { encryptor: fakeEncryptor() });
  image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
  const created = (await bridge.call('create', {
    endpoint: 'createImageTo3d',
    body: { image_url: image, topology: 'quads' },
  })) as { job: { id: string; remoteId: string } };
  jobId = created.job.id;
  for (let tries = 0; ; tries++) {
    const { outputs } = COMMANDS['cache.outputs'].output.parse(
      await bridge.call('cache.outputs', { sessionId: created.job.remoteId }),
    );
    if (outputs.some((o) => o.kind === 'glb' && o.state === 'complete')) break;
    if (tries > 2400) throw new Error('the GLB never reached the cache');
    await new Promise((r) => setTimeout(r, 50));
  }
}, 180_000);

afterAll(async () => {
  await bridge.close();
  data.remove();
});

describe('check.run, job.setSize, review.*, target profiles in Settings', () => {
  it('checks against the saved default profile with its edits, and a profile named', async () => {
    // None saved: unity-desktop. Its budget of 50,000 takes the engine's ~20,000 triangles.
    const plain = await check({ jobId });
    expect(plain.profile).toBe('unity-desktop');
    expect(plain.findings.map((f) => f.code)).not.toContain('triangles-over-budget');
    // A default and an edit saved in Settings: the edit's budget applies.
    const view = COMMANDS['settings.update'].output.parse(
      await bridge.call('settings.update', {
        targetProfiles: { defaultProfile: 'godot-mobile', edits: { 'godot-mobile': { triangleBudget: 5000 } } },
      }),
    );
    expect(view.targetProfiles).toEqual({
      defaultProfile: 'godot-mobile',
      edits: { 'godot-mobile': { triangleBudget: 5000 } },
    });
    const edited = await check({ jobId });
    expect(edited.profile).toBe('godot-mobile');
    expect(edited.findings.find((f) => f.code === 'triangles-over-budget')?.fix?.label).toBe(
      'Reduce to 5,000 triangles',
    );
    expect((await check({ jobId, profile: 'unreal-desktop' })).profile).toBe('unreal-desktop');
    const unknown = await failure(bridge.call('check.run', { jobId, profile: 'ps2' }));
    expect(unknown.message).toContain('There is no target profile "ps2"');
  });

  it('refuses target profile edits that break a profile, naming the field', async () => {
    const error = await failure(
      bridge.call('settings.update', {
        targetProfiles: {
          edits: {
            web: {
              lods: [
                { ratio: 0.5, screenSize: 0.2 },
                { ratio: 0.6, screenSize: 0.1 },
              ],
            },
          },
        },
      }),
    );
    expect(error.code).toBe('invalid-input');
    expect(error.issues?.map((i) => i.path)).toContain('targetProfiles.edits.web.lods[1].ratio');
    expect(
      (await failure(bridge.call('settings.update', { targetProfiles: { defaultProfile: 'ps2' } }))).issues?.[0]?.path,
    ).toBe('targetProfiles.defaultProfile');
  });

  it('keeps the height the user gives: the next check offers to set it', async () => {
    expect(await bridge.call('job.setSize', { jobId, heightM: 0.12 })).toEqual({ jobId, heightM: 0.12 });
    const report = await check({ jobId, profile: 'web' });
    expect(report.heightM).toBe(0.12);
    expect(report.findings.find((f) => f.code === 'size-differs')?.fix?.label).toBe('Set height 0.12 m');
    await bridge.call('job.setSize', { jobId, heightM: null });
    expect((await check({ jobId, profile: 'web' })).findings.map((f) => f.code)).toContain('size-unknown');
  });

  it("lists the board's rows with the verdict, keeps approvals, and gives the job's request", async () => {
    const rows = COMMANDS['review.list'].output.parse(
      await bridge.call('review.list', { jobIds: [jobId], profile: 'unity-mobile' }),
    );
    expect(rows.profile).toBe('unity-mobile');
    expect(rows.entries[0]).toMatchObject({
      jobId,
      endpoint: 'createImageTo3d',
      decision: null,
      verdict: 'fails', // over the mobile budget of 10,000
      reason: null,
    });
    expect(rows.entries[0]?.model?.triangles).toBeGreaterThan(10_000);
    expect(await bridge.call('review.decide', { jobId, decision: 'approved' })).toEqual({
      jobId,
      decision: 'approved',
    });
    const again = COMMANDS['review.list'].output.parse(await bridge.call('review.list', { jobIds: [jobId] }));
    expect(again.entries[0]?.decision).toBe('approved');
    // A job that has not finished has no verdict: its row says why, and the others are still read.
    const queued = bridge.services.store.jobs.insert({
      kind: 'image_to_3d',
      label: 'lamp.png',
      remoteId: 'r_q',
      now: 1,
    });
    const mixed = COMMANDS['review.list'].output.parse(
      await bridge.call('review.list', { jobIds: [queued.id, jobId], profile: 'web' }),
    );
    expect(mixed.entries[0]).toMatchObject({ jobId: queued.id, verdict: null, model: null, endpoint: null });
    expect(mixed.entries[0]?.reason).toMatch(/^lamp\.png is .+: only a finished job's model can be checked\.$/);
    expect(mixed.entries[1]?.verdict).not.toBeNull();
    expect((await failure(bridge.call('check.run', { jobId: queued.id }))).code).toBe('nothing-to-check');
    const request = COMMANDS['jobs.request'].output.parse(await bridge.call('jobs.request', { id: jobId }));
    expect(request).toMatchObject({ endpoint: 'createImageTo3d', body: { image_url: image, topology: 'quads' } });
  });
});
