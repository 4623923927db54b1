import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { JOINT_NAMES } from '../../shared/contract/index.ts';
import { buildFbxBinary, buildZip } from '../../main/engine/outputs/index.ts';
import { GENERATOR } from '../../main/engine/outputs/mesh.ts';
import { riggedCharacter } from '../fixtures.ts';
import { binaryFbx, fbxProp } from './bombs.ts';
import {
  animatedPrompts,
  animationReady,
  call,
  download,
  expectError,
  expectPng,
  expectSuccess,
  inputUrl,
  send,
  startTestEngine,
  submitTexts,
  type TestEngine,
  uploadAnimationFile,
  useTestEngine,
} from './helpers.ts';
import { LIBRARY_CLIPS } from './library.ts';

const engine = useTestEngine();

/** An upload with a text field the endpoint does not know, which it ignores. */
const upload = (target: TestEngine, bytes: Uint8Array, name = 'hero.fbx') =>
  uploadAnimationFile(target, bytes, name, { note: 'ignored' });
const finished = (code: string) => animationReady(engine, code);

describe('mesh animation', () => {
  it('accepts a rigged character and a zip of it, and stores the file', async () => {
    const fbx = riggedCharacter();
    const uploads: [Uint8Array, string][] = [
      [fbx, 'kenney.fbx'],
      [buildZip([{ name: 'hero.fbx', data: fbx }]), 'heroes.zip'],
    ];
    for (const [bytes, name] of uploads) {
      const result = expectSuccess('uploadAnimationMesh', await upload(engine, bytes, name));
      expect(result).toMatchObject({ status: 'init_processing' });
      expect(result.session_code).toMatch(/^SESSION_/);
      const stored = await download(result.mesh_url);
      expect(stored.bytes.equals(Buffer.from(bytes)), name).toBe(true);
    }
  });

  // #24 item 5, #32 item 1: a model the engine generated has no bones. The engine rigs it when it is a humanoid
  // standing upright (test/engine/rigging/http.test.ts); this one (a rock) is refused with why (a file: 400; by URL:
  // the session ends init_failed with the same words), never animated as a stand-in mannequin in its place.
  it("refuses the engine's own generated FBX of a rock (no skeleton, not a humanoid) with why, and never animates a stand-in figure", async () => {
    const generated = buildFbxBinary('hero');
    for (const [bytes, name] of [
      [generated, 'rock.fbx'],
      [buildZip([{ name: 'rock.fbx', data: generated }]), 'rock.zip'],
    ] as const) {
      const refused = await upload(engine, bytes, name);
      expectError(refused, 400, name, 'has no skeleton and is not a humanoid standing upright', 'cannot rig it');
    }
    const byUrl = expectSuccess(
      'uploadAnimationMesh',
      await call(engine, 'uploadAnimationMesh', { json: { mesh_url: inputUrl('chair.generated-fbx') } }),
    );
    const failed = await finished(byUrl.session_code);
    expect(failed).toMatchObject({ status: 'init_failed', mesh_url: '', render_url: '', animation_library: [] });
    expect(failed.error).toContain('has no skeleton and is not a humanoid standing upright');
    expect(failed.error).toContain('upload the rigged FBX');
  });

  it('rejects uploads that are neither FBX nor zip, or have no file field', async () => {
    expectError(await upload(engine, Buffer.from('solid cube\nendsolid\n'), 'cube.stl'), 400, 'file', 'FBX', 'zip');
    const form = new FormData();
    form.append('other', 'x');
    expectError(await send(`${engine.url}/mesh-animation/upload`, { body: form }), 400, 'file');
  });

  it('progresses to predefined_done with render, rig, library and text animations', async () => {
    const result = expectSuccess(
      'uploadAnimationMesh',
      await call(engine, 'uploadAnimationMesh', { json: { mesh_url: inputUrl('hero.fbx') } }),
    );
    expect(result).toEqual({
      session_code: expect.any(String),
      mesh_url: inputUrl('hero.fbx'),
      status: 'init_processing',
    });
    const done = await finished(result.session_code);
    expect(done.status).toBe('predefined_done');
    for (const field of ['render_url', 'mesh_url', 'thumbnail', 'animation_url'])
      expect(done[field], field).not.toBe('');
    const render = await download(done.render_url);
    expectPng(render.bytes);
    expect(render.bytes.readUInt32BE(16)).toBe(512);
    // The uploaded character on its own skeleton, as FBX (as the service delivers it).
    expect((await download(done.mesh_url)).bytes.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
    expect(done.animation_library.map((a: { label: string }) => a.label)).toEqual(LIBRARY_CLIPS);

    const joints = done.animation_joint_dict as Record<string, [number, number]>;
    expect(Object.keys(joints).sort()).toEqual([...JOINT_NAMES].sort());
    for (const [x, y] of Object.values(joints)) expect(x >= 0 && x < 512 && y >= 0 && y < 512).toBe(true);
    // A standing body: head above neck above pelvis above knees above ankles; the figure's right on the image's left.
    expect(joints.Head![1]).toBeLessThan(joints.Neck![1]);
    expect(joints.Neck![1]).toBeLessThan(joints.Pelvis![1]);
    expect(joints.Pelvis![1]).toBeLessThan(joints.L_Knee![1]);
    expect(joints.L_Knee![1]).toBeLessThan(joints.L_Ankle![1]);
    expect(joints.R_Shoulder![0]).toBeLessThan(joints.L_Shoulder![0]);

    const texts = ['walk forward', 'x'.repeat(301), 'qzxv blorp', 'wave with both hands'];
    const submitted = await submitTexts(engine, result.session_code, texts);
    expect(submitted.responses.map((r: { text: string; isError: boolean }) => [r.text, r.isError])).toEqual([
      ['walk forward', false],
      ['x'.repeat(301), true],
      ['qzxv blorp', true],
      ['wave with both hands', false],
    ]);
    expect(submitted.responses[1].message).toContain('too long');
    const animated = await animatedPrompts(engine, result.session_code, 2);
    for (const prompt of animated.prompts) {
      expect(prompt.session_code).toBe(result.session_code);
      expect((await download(prompt.mesh_url)).bytes.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
      expect((await download(prompt.usdz_url)).headers.get('content-type')).toBe('model/vnd.usdz+zip');
    }
  });

  it('text-multi queues texts until the rig is ready, and knows its sessions', async () => {
    const slow = await startTestEngine({ speed: 1 }); // its mesh is ready after 17 s at the earliest
    try {
      const result = expectSuccess(
        'uploadAnimationMesh',
        await call(slow, 'uploadAnimationMesh', { json: { mesh_url: inputUrl('a.fbx') } }),
      );
      const submitted = await submitTexts(slow, result.session_code, ['walk', 'qzxv blorp']);
      expect(submitted.responses.map((r: { isError: boolean }) => r.isError)).toEqual([false, true]);
      expect(submitted.responses[0].message).toContain('when the mesh is ready');
      expect(submitted.responses[1].message).toMatch(/names or relates to a motion.*walk/);
      const session = expectSuccess(
        'getAnimation',
        await call(slow, 'getAnimation', { params: { session_code: result.session_code } }),
      );
      expect(session.status).toBe('init_processing');
      expect(session.prompts.map((p: { text: string; status: string }) => [p.text, p.status])).toEqual([
        ['walk', 'text_processing'],
      ]);
      expectError(
        await call(slow, 'submitTextAnimations', { json: { session_code: 'SESSION_unknown', texts: ['walk'] } }),
        404,
      );
    } finally {
      await slow.dispose();
    }
  });

  it('fails the queued texts of a session whose mesh cannot be prepared, and answers later texts isError', async () => {
    engine.faults.add({ kind: 'session-failure', match: { endpoint: 'uploadAnimationMesh' } });
    const result = expectSuccess(
      'uploadAnimationMesh',
      await call(engine, 'uploadAnimationMesh', { json: { mesh_url: inputUrl('b.fbx') } }),
    );
    const submitted = await submitTexts(engine, result.session_code, ['run']);
    // Sent while it runs, the text waits; when the session ends failed, so does the text.
    const failed = await finished(result.session_code);
    expect(failed.status).toBe('init_failed');
    if (!submitted.responses[0].isError)
      expect(failed.prompts.map((p: { status: string }) => p.status)).toEqual(['text_failed']);
    const later = await submitTexts(engine, result.session_code, ['jump']);
    expect(later.responses[0]).toMatchObject({
      isError: true,
      message: expect.stringContaining('upload the mesh again'),
    });
  });

  it('ends init_failed when a session-failure fault rule says so', async () => {
    engine.faults.add({ kind: 'session-failure', match: { endpoint: 'uploadAnimationMesh' } });
    const result = expectSuccess(
      'uploadAnimationMesh',
      await call(engine, 'uploadAnimationMesh', { json: { mesh_url: inputUrl('hero.fbx') } }),
    );
    const done = await finished(result.session_code);
    expect(done).toMatchObject({ status: 'init_failed', mesh_url: '', animation_library: [] });
  });

  it('streams a large upload without trouble, and judges it once it is whole', async () => {
    // Each upload on a connection of its own: a kept-alive one the engine closes as idle just as the next 64 MiB
    // starts resets it (ECONNRESET on a loaded machine), which says nothing of the engine's reading.
    const shared = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ pipelining: 0 }));
    onTestFinished(() => setGlobalDispatcher(shared));
    // A binary FBX of one node holding 64 MiB of raw bytes (a structure the FBX check follows, issue #33 item 3).
    const blob = Buffer.alloc(4 + 64 * 2 ** 20, 7);
    blob.writeUInt32LE(64 * 2 ** 20, 0);
    // Made by this engine (its generator's name inside) or elsewhere, no bones and no mesh: refused once received.
    Buffer.from(GENERATOR, 'latin1').copy(blob, 1000);
    const big = () => binaryFbx([{ name: 'Blob', props: [fbxProp('R', blob)] }]);
    expectError(await upload(engine, big(), 'big.fbx'), 400, 'big.fbx', 'no skeleton and no mesh');
    blob.fill(7, 1000, 1000 + GENERATOR.length);
    expectError(await upload(engine, big(), 'big.fbx'), 400, 'big.fbx', 'no skeleton and no mesh');
  });
});
