// Issue 14, item 2: no magic words. A prompt, image URL, mesh URL, zip URL or animation text that holds
// "fail" is processed like any other; only the engine's explicit fault controls make a session fail.
import { riggedCharacter } from '../fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGlb, buildZip, renderTexture } from '../../main/engine/outputs/index.ts';
import { startTestEngine, type TestEngine } from '../engine/helpers.ts';
import { pollData, pythonGet, pythonPost, serveFiles, type LoopbackFiles } from './third-party.ts';

let engine: TestEngine;
let bucket: LoopbackFiles;
beforeAll(async () => {
  engine = await startTestEngine();
  const png = renderTexture('failover');
  bucket = await serveFiles({
    '/Failover-bucket/x.png': { type: 'image/png', bytes: png },
    '/failsafe/mesh.glb': { type: 'model/gltf-binary', bytes: buildGlb({ seed: 'failsafe' }) },
    '/fail/hero.fbx': { type: 'application/octet-stream', bytes: riggedCharacter() },
    '/fail/styles.zip': { type: 'application/zip', bytes: buildZip([{ name: 'fail-1.png', data: png }]) },
  });
});
afterAll(async () => {
  await bucket.close();
  await engine.dispose();
});

describe('item 2: faults are explicit, never triggered by user content', () => {
  it('processes content holding "fail" like any other, and fails a session only by a fault rule', async () => {
    const tti = await pythonPost(`${engine.url}/tti-sessions`, {
      prompt: 'a red fire extinguisher with a failsafe pin',
    });
    expect(tti.status).toBe(201);
    const image = await pythonPost(`${engine.url}/image-to-3d-sessions`, {
      image_url: bucket.url('/Failover-bucket/x.png'),
    });
    expect(image.status).toBe(201);
    const older = await pythonPost(`${engine.legacyUrl}/image-to-3d-sessions`, {
      image_url: bucket.url('/Failover-bucket/x.png'),
    });
    expect(older.status).toBe(201);
    const retopology = await pythonPost(`${engine.url}/v3/sessions`, {
      type: 'retopology',
      input: { mesh: bucket.url('/failsafe/mesh.glb'), model: 'swift', quads: true },
    });
    expect(retopology.status).toBe(201);
    const upload = await pythonPost(`${engine.url}/mesh-animation/upload`, { mesh_url: bucket.url('/fail/hero.fbx') });
    expect(upload.status).toBe(200);
    const style = await pythonPost(`${engine.url}/tti-styles`, {
      zip_url: bucket.url('/fail/styles.zip'),
      description: 'failsafe ink',
      is_public: false,
    });
    expect(style.status).toBe(201);

    expect(
      (
        await pollData(
          `${engine.url}/tti-sessions/${tti.body.data.session_code}`,
          (d) => d.status !== 'processing' && d.status !== 'in_progress',
        )
      ).status,
    ).toBe('completed');
    expect(
      (
        await pollData(
          `${engine.url}/image-to-3d-sessions/${image.body.data.session_code}`,
          (d) => d.percent_done === 100 || d.session_status === 'failed',
        )
      ).session_status,
    ).toBe('complete');
    const listed = await pollData(
      `${engine.url}/image-to-3d-sessions/get-mesh/${older.body.data.session_code}`,
      (d) => !d[0].status.endsWith('processing') && d[0].status !== 'uploaded',
    );
    expect(listed[0].status).toBe('spin_generate_done');
    expect(
      (await pollData(`${engine.url}/v3/sessions/${retopology.body._id}`, (d) => d.status !== 'incomplete')).status,
    ).toBe('complete');
    const animation = await pollData(
      `${engine.url}/mesh-animation/${upload.body.data.session_code}`,
      (d) => d.status === 'predefined_done' || d.status.endsWith('_failed'),
    );
    expect(animation.status).toBe('predefined_done');
    const texts = await pythonPost(`${engine.url}/mesh-animation/text-multi`, {
      session_code: upload.body.data.session_code,
      texts: ['fail at jumping', 'walk past the failover door'],
    });
    expect(texts.body.data.responses.map((r: { isError: boolean }) => r.isError)).toEqual([false, false]);
    const animated = await pollData(`${engine.url}/mesh-animation/${upload.body.data.session_code}`, (d) =>
      d.prompts.every((p: { status: string }) => p.status !== 'text_processing'),
    );
    expect(animated.prompts.map((p: { status: string }) => p.status)).toEqual(['text_done', 'text_done']);
    // The style trained from a zip at a "fail" URL is usable.
    const styled = await pollData(
      `${engine.url}/tti-sessions/${(await pythonPost(`${engine.url}/tti-sessions`, { prompt: 'a crane', style_id: style.body.data.style_id })).body.data.session_code}`,
      (d) => d.status === 'completed' || d.status === 'failed',
    );
    expect(styled.status).toBe('completed');
  });

  it('fails the next session of a kind by a rule set over HTTP, and names it in the rule list', async () => {
    const set = await pythonPost(`${engine.url}/__engine/faults`, [
      { kind: 'session-failure', match: { endpoint: 'createTextToImage' } },
    ]);
    expect(set.status).toBe(200);
    expect(set.body.rules).toEqual([{ kind: 'session-failure', match: { endpoint: 'createTextToImage' } }]);
    const doomed = await pythonPost(`${engine.url}/tti-sessions`, { prompt: 'a lamp' });
    const fine = await pythonPost(`${engine.url}/tti-sessions`, { prompt: 'a lamp' });
    const finished = (code: string) =>
      pollData(`${engine.url}/tti-sessions/${code}`, (d) => d.status === 'completed' || d.status === 'failed');
    expect((await finished(doomed.body.data.session_code)).status).toBe('failed');
    expect((await finished(fine.body.data.session_code)).status).toBe('completed');
    expect((await pythonGet(`${engine.url}/__engine/faults`)).body.rules).toEqual([]);
    // A bad rule is refused with the kinds that exist.
    const bad = await pythonPost(`${engine.url}/__engine/faults`, [
      { kind: 'session-failure', match: { endpoint: 'nope' } },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('endpoint');
  });
});
