import { describe, expect, it } from 'vitest';
import {
  call,
  download,
  expectError,
  expectPng,
  expectSuccess,
  inputUrl,
  pollUntil,
  useTestEngine,
} from './helpers.ts';

const engine = useTestEngine();

/** The older-form record, read through the list (which answers the older form). */
async function olderRecord(code: string) {
  const list = expectSuccess('listImageTo3d', await call(engine, 'listImageTo3d', { query: 'limit=100' }));
  return list.results.find((r: { session_code: string }) => r.session_code === code);
}
const current = async (code: string) =>
  expectSuccess('getImageTo3d', await call(engine, 'getImageTo3d', { params: { session_code: code } }));
const waitFor = (code: string, status: string) =>
  pollUntil(
    () => olderRecord(code),
    (r) => r.status === status,
  );

describe('older step-by-step flow', () => {
  it('spin, pick a view, preview, refine, regenerate the spin', async () => {
    const created = expectSuccess(
      'createImageTo3dLegacy',
      await call(engine, 'createImageTo3dLegacy', {
        json: { image_url: inputUrl('robot.png'), model_version: 'beta' },
      }),
    );
    expect(created).toMatchObject({
      status: 'uploaded',
      inference: [],
      model_version: 'beta',
      chat_user_id: '',
      user_name: '',
      email: '',
      percentage: 0,
    });
    for (const field of ['experimental_model', 'debug', 'private', 'demo', 'random_poses', 'is_deleted'])
      expect(created[field]).toBe(false);
    expect(created._id).toMatch(/^[0-9a-f]{24}$/);
    const code: string = created.session_code;

    const spun = await waitFor(code, 'spin_generate_done');
    expect(spun.inference).toHaveLength(4);
    for (const view of spun.inference) {
      expect(view).toMatchObject({ width: 256, height: 256 });
      expect(view.image_name).toMatch(/\.png$/);
      const png = await download(view.image_url);
      expectPng(png.bytes);
      expect(png.bytes.readUInt32BE(16)).toBe(256);
    }
    // The current form of an older session carries its older status.
    expect((await current(code)).session_status).toBe('spin_generate_done');

    // Preview of view 2, chosen by URL.
    const ack = expectSuccess(
      'preview',
      await call(engine, 'preview', {
        params: { session_code: code },
        json: { selected_spin: spun.inference[2].image_url, pivot_point: [0, -0.5, 0] },
      }),
    );
    expect(ack).toMatchObject({ scenario: code, status: 'unprocessed' });
    expect(JSON.parse(ack.complete_job_data.task_data)).toEqual({
      model_version: '1.1',
      selected_spin_index: 2,
      selected_spin: spun.inference[2].image_url,
      pivot_point: [0, -0.5, 0],
    });
    expect(ack.complete_job_data.start_time).toMatch(/^\d+\.\d+$/);

    const previewed = await waitFor(code, 'preview_done');
    expect(previewed.preview_mesh_url_glb).not.toBe('');
    expect(previewed.preview_mesh_url_zip).not.toBe('');
    expect(previewed.preview_mesh_url_usdz).not.toBe('');
    expect(previewed.mesh_url_glb).toBe(previewed.preview_mesh_url_glb);
    expect(previewed.polished_mesh_url_glb).toBe('');
    const mesh = expectSuccess('getMesh', await call(engine, 'getMesh', { params: { session_code: code } }));
    expect(mesh[0].status).toBe('preview_done');

    // Another view gives another mesh.
    expectSuccess(
      'preview',
      await call(engine, 'preview', { params: { session_code: code }, json: { selected_spin_index: 1 } }),
    );
    const other = await waitFor(code, 'preview_done');
    const [a, b] = await Promise.all([download(previewed.preview_mesh_url_glb), download(other.preview_mesh_url_glb)]);
    expect(a.bytes.equals(b.bytes)).toBe(false);

    expectSuccess('refine', await call(engine, 'refine', { params: { session_code: code }, json: {} }));
    const refined = await waitFor(code, 'refine_done');
    for (const field of [
      'polished_mesh_url_glb',
      'polished_mesh_url_usdz',
      'mesh_url',
      'mesh_url_glb',
      'mesh_url_zip',
      'mesh_url_obj',
      'mesh_url_usdz',
    ]) {
      expect(refined[field], field).not.toBe('');
    }
    expect(refined.percentage).toBe(100);
    expect((await current(code)).mesh_url_glb).toContain('/refine-');

    // Regenerating the spin brings new images.
    expectSuccess(
      'submitSpin',
      await call(engine, 'submitSpin', { json: { session_code: code, image_urls: [inputUrl('robot-2.png')] } }),
    );
    const respun = await waitFor(code, 'spin_generate_done');
    expect(respun.inference.map((v: { image_name: string }) => v.image_name)).not.toEqual(
      spun.inference.map((v: { image_name: string }) => v.image_name),
    );
    expect(respun.input_image).toBe(inputUrl('robot-2.png'));
  });

  it('auto_gen_3d continues into the preview', async () => {
    const created = expectSuccess(
      'createImageTo3dLegacy',
      await call(engine, 'createImageTo3dLegacy', { json: { image_url: inputUrl('auto.png'), auto_gen_3d: true } }),
    );
    const done = await waitFor(created.session_code, 'preview_done');
    expect(done.inference).toHaveLength(4);
    expect(done.preview_mesh_url_glb).not.toBe('');
  });

  it('rejects a selected_spin that is not one of the views, and steps of current-form sessions', async () => {
    const created = expectSuccess(
      'createImageTo3dLegacy',
      await call(engine, 'createImageTo3dLegacy', { json: { image_url: inputUrl('x.png') } }),
    );
    await waitFor(created.session_code, 'spin_generate_done');
    expectError(
      await call(engine, 'preview', {
        params: { session_code: created.session_code },
        json: { selected_spin: inputUrl('other.png') },
      }),
      400,
      'selected_spin',
    );

    const modern = expectSuccess(
      'createImageTo3d',
      await call(engine, 'createImageTo3d', { json: { image_url: inputUrl('y.png') } }),
    );
    expectError(
      await call(engine, 'preview', { params: { session_code: modern.session_code }, json: {} }),
      400,
      'legacy address',
    );
  });
});

describe('older flow rules while steps run', () => {
  // Steps are finished by a fast engine; a restart at realistic speed (speed 1) then keeps the next
  // steps running long enough to ask for things too early, without any timing assumption.
  it('answers 400 for too-early or overlapping steps', async () => {
    const code: string = expectSuccess(
      'createImageTo3dLegacy',
      await call(engine, 'createImageTo3dLegacy', { json: { image_url: inputUrl('r.png') } }),
    ).session_code;
    const other: string = expectSuccess(
      'createImageTo3dLegacy',
      await call(engine, 'createImageTo3dLegacy', { json: { image_url: inputUrl('s.png') } }),
    ).session_code;
    await waitFor(code, 'spin_generate_done');
    await waitFor(other, 'spin_generate_done');
    await engine.restart({ speed: 1 });

    const fresh: string = expectSuccess(
      'createImageTo3dLegacy',
      await call(engine, 'createImageTo3dLegacy', { json: { image_url: inputUrl('t.png') } }),
    ).session_code;
    expectError(
      await call(engine, 'preview', { params: { session_code: fresh }, json: {} }),
      400,
      'wait for the spin views',
    );
    expectError(
      await call(engine, 'refine', { params: { session_code: code }, json: {} }),
      400,
      'preview_done',
      'spin_generate_done',
    );

    expectSuccess('preview', await call(engine, 'preview', { params: { session_code: code }, json: {} }));
    expect((await olderRecord(code)).status).toBe('preview_processing');
    // A second preview while one is made is a new trial (issue 22: SDK 0.1.3 and 0.1.6 ask for one with another spin).
    const again = expectSuccess(
      'preview',
      await call(engine, 'preview', { params: { session_code: code }, json: { selected_spin_index: 2 } }),
    );
    expect(JSON.parse(again.complete_job_data.task_data)).toMatchObject({ selected_spin_index: 2 });
    // A refine asked while the preview is made follows it (issue 22: never "busy").
    expectSuccess('refine', await call(engine, 'refine', { params: { session_code: code }, json: {} }));
    expect((await olderRecord(code)).status).toBe('preview_processing');
    expectError(
      await call(engine, 'submitSpin', { json: { session_code: code, image_urls: [inputUrl('r.png')] } }),
      400,
      'busy',
    );

    expectSuccess(
      'submitSpin',
      await call(engine, 'submitSpin', { json: { session_code: other, image_urls: [inputUrl('s2.png')] } }),
    );
    const respinning = await olderRecord(other);
    expect(respinning).toMatchObject({ status: 'spin_generate_processing', inference: [] });
  });
});
