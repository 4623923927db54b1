// The other bodies the real service answers (issue #22): v3 sessions without timestamps (the vendor's
// image_to_3d examples) and the one verbatim body (3devals README, chat_to_3d with a real SAS URL), the
// vendor's text-to-image and style answers, get-3d/refine's acknowledgement; and every status the public
// material shows, read by the one home of the status tables (shared/kinds/).
import { describe, expect } from 'vitest';
import { ENDPOINTS, envelope } from '../../shared/contract/index.ts';
import { normaliseStatus, type ResourceKind } from '../../shared/kinds/index.ts';
import { cli, it } from './helpers.ts';
import { fixture } from './replay-server.ts';

describe('v3 sessions', () => {
  it("image_to_3d as the vendor's README shows it (no created_at/updated_at): created, then read complete", async ({
    replay,
  }) => {
    const missing = await cli(replay, ['get-v3', 'SESSION_XXXXXXXXX_XXXXXXXX']); // not there yet: the service's 404
    expect(missing.code).toBe(3);
    replay.addV3('SESSION_XXXXXXXXX_XXXXXXXX', [
      replay.fixture('v3-image-to-3d-create'),
      replay.fixture('v3-image-to-3d-complete'),
    ]);
    const first = await cli(replay, ['get-v3', 'SESSION_XXXXXXXXX_XXXXXXXX']);
    expect(first.stderr).toBe('');
    expect(first.stdout.split('\n')[0]).toBe('state: running (incomplete)');
    const second = await cli(replay, ['get-v3', 'SESSION_XXXXXXXXX_XXXXXXXX', '--json']);
    const session = JSON.parse(second.stdout) as { status: string; created_at?: string; output: { meshes: unknown[] } };
    expect(session.status).toBe('complete');
    expect(session.created_at).toBeUndefined();
    expect(session.output.meshes).toHaveLength(1);
  });

  it('the verbatim chat_to_3d body (3devals README) is read', async ({ replay }) => {
    const body = replay.fixture('v3-chat-to-3d-verbatim');
    replay.addV3(body._id, [body]);
    const got = await cli(replay, ['get-v3', body._id]);
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('type: chat_to_3d');
  });

  it('a retopology create answers incomplete, then the vendor example complete', async ({ replay }) => {
    const created = await cli(replay, ['retopology', 'ASSET_1747335632_4906245', '--json']);
    expect(created.code).toBe(0);
    const id = (JSON.parse(created.stdout) as { data: { _id: string; status: string } }).data._id;
    const read = JSON.parse((await cli(replay, ['get-v3', id, '--json'])).stdout) as { status: string };
    expect(read.status).toBe('incomplete');
    const done = JSON.parse((await cli(replay, ['get-v3', id, '--json'])).stdout) as {
      status: string;
      output: { meshes: { data: { obj_url: string } }[] };
    };
    expect(done.status).toBe('complete');
    expect(done.output.meshes[0]!.data.obj_url).toMatch(/retopo_mesh_0\.obj\?sp=r&/);
  });
});

describe('the envelope endpoints', () => {
  it("text-to-image and style creates answer as the vendor's examples (processing, training)", async ({ replay }) => {
    const tti = await cli(replay, ['text-to-image', 'a', 'wooden', 'chest']);
    expect(tti.code).toBe(0);
    expect(tti.stdout.split('\n')[0]).toBe('state: running (processing)');
    const style = await cli(replay, ['style', 'https://example.com/training.zip', '--description', 'pastel props']);
    expect(style.code).toBe(0);
    expect(style.stdout.split('\n')[0]).toBe('state: running (training)');
  });

  it("every fixture body passes the contract's schema of its endpoint", () => {
    const data = (name: string) => fixture(name).data;
    expect(envelope(ENDPOINTS.getImageTo3d.data).parse(fixture('image-to-3d-get-current')).data.session_status).toBe(
      'complete',
    );
    expect(ENDPOINTS.getImageTo3d.data.parse(data('image-to-3d-get-older')).status).toBe('spin_generate_done');
    expect(ENDPOINTS.createImageTo3d.data.parse(data('image-to-3d-create-older')).session_code).toMatch(/^SESSION_/);
    expect(ENDPOINTS.listImageTo3d.data.parse(data('image-to-3d-list')).results[0]!.inference).toHaveLength(1);
    expect(ENDPOINTS.refine.data.parse(data('get-3d-refine-ack')).status).toBe('unprocessed');
    expect(ENDPOINTS.createTextToImage.data.parse(data('text-to-image-create')).status).toBe('processing');
    expect(ENDPOINTS.createStyle.data.parse(data('text-to-image-style-create')).status).toBe('training');
    expect(ENDPOINTS.getAnimation.data.parse(data('mesh-animation-get')).status).toBe('predefined_done');
    expect(ENDPOINTS.listAnimations.data.parse(data('mesh-animation-list')).results[0]?.status).toBe('init_done');
    expect(ENDPOINTS.uploadAnimationMesh.data.parse(data('mesh-animation-upload')).status).toBe('init_processing');
    for (const name of ['retopology-get', 'v3-image-to-3d-create', 'v3-image-to-3d-complete', 'v3-chat-to-3d-verbatim'])
      expect(ENDPOINTS.getV3Session.data.parse(fixture(name))._id).toMatch(/^SESSION_/);
  });
});

describe('every status the public material shows', () => {
  const SHOWN: [ResourceKind, string, string][] = [
    // image-to-3D, current form (docs get-session; SDK 0.1.6+ reads session_status: complete, failed; 0.1.7+ names queued, in_progress)
    ['image_to_3d', 'queued', 'queued'],
    ['image_to_3d', 'in_progress', 'running'],
    ['image_to_3d', 'complete', 'succeeded'],
    ['image_to_3d', 'failed', 'failed'],
    // the older flow (docs list: uploaded; SDK 0.0.2 to 0.1.5: spins, then training_preview until preview_done)
    ['image_to_3d', 'uploaded', 'queued'],
    ['image_to_3d', 'spin_generate_processing', 'running'],
    ['image_to_3d', 'spin_generate_done', 'succeeded'],
    ['image_to_3d', 'spin_generate_failed', 'failed'],
    ['image_to_3d', 'training_preview', 'running'],
    ['image_to_3d', 'preview_done', 'succeeded'],
    ['image_to_3d', 'preview_failed', 'failed'],
    ['image_to_3d_older', 'training_preview', 'running'],
    ['mesh_availability', 'training_preview', 'running'],
    ['mesh_availability', 'preview_done', 'succeeded'],
    ['get3d_job', 'unprocessed', 'queued'],
    // text-to-image (SDK: processing, completed) and styles (docs: training)
    ['text_to_image', 'processing', 'running'],
    ['text_to_image', 'completed', 'succeeded'],
    ['style', 'training', 'running'],
    // mesh animation (docs upload, list, get)
    ['animation_session', 'init_processing', 'running'],
    ['animation_session', 'init_done', 'running'],
    ['animation_session', 'predefined_done', 'succeeded'],
    ['animation_prompt', 'text_done', 'succeeded'],
    // v3 sessions and assets (docs sessions overview, retopology; 3devals README)
    ['v3_session', 'incomplete', 'running'],
    ['v3_session', 'complete', 'succeeded'],
    ['v3_session', 'failed', 'failed'],
    ['asset', 'incomplete', 'running'],
    ['asset', 'complete', 'succeeded'],
  ];
  it.each(SHOWN)('%s %s is %s', (kind, raw, state) => {
    expect(normaliseStatus(kind, raw)).toMatchObject({ state, raw });
  });

  it('the older steps: training_preview is the preview running, after the spins and before preview_done', () => {
    const step = (raw: string) => normaliseStatus('image_to_3d_older', raw, { step: 'preview' }).state;
    expect(['spin_generate_done', 'training_preview', 'preview_done'].map(step)).toEqual([
      'running',
      'running',
      'succeeded',
    ]);
    expect(normaliseStatus('image_to_3d_older', 'training_preview', { step: 'spin' }).state).toBe('succeeded');
  });
});
