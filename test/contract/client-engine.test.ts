// Contract tests: the API client against the embedded engine over real HTTP, for every endpoint.
import { riggedCharacter } from '../fixtures.ts';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import {
  ApiError,
  NetworkError,
  ProtocolError,
  RequestValidationError,
  ServiceResponseError,
  TimeoutError,
} from '../../main/api/errors.ts';
import { encodePng } from '../../main/engine/outputs/index.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inputUrl, KEY, startTestEngine, type TestEngine } from '../engine/helpers.ts';

let engine: TestEngine;
let client: ServiceClient;
const sleeps: number[] = [];
const logs: string[] = [];
const errors: unknown[] = [];
const png = `data:image/png;base64,${encodePng(2, 2, new Uint8Array(16).fill(200)).toString('base64')}`;

/** Records the delays the client asks for instead of waiting them out. */
const fastSleep = async (ms: number) => {
  sleeps.push(ms);
};

beforeAll(async () => {
  engine = await startTestEngine();
  const log = (m: string, f?: Record<string, unknown>) => logs.push(`${m} ${JSON.stringify(f ?? {})}`);
  client = new ServiceClient({
    baseUrl: engine.url,
    legacyBaseUrl: engine.legacyUrl,
    apiKey: KEY,
    sleep: fastSleep,
    logger: { debug: log, info: log, warn: log, error: log },
  });
});

afterAll(async () => {
  // The key never appears in an error or a log line, however the error is shown.
  for (const e of errors) {
    for (const text of [String(e), (e as Error).stack ?? '', JSON.stringify(e), inspect(e, { depth: 5 })])
      expect(text).not.toContain(KEY);
  }
  for (const line of logs) expect(line).not.toContain(KEY);
  await client.close();
  await engine.dispose();
});

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    errors.push(error);
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('status not reached');
}

describe('every endpoint, success', () => {
  it('image-to-3D current form: create, get, list, get-mesh', async () => {
    const created = await client.createImageTo3d({ image_url: png, topology: 'quads', scaled_bbox: [-1, 1.8, -1] });
    expect(created.session_code).toMatch(/^SESSION_/);
    expect(created.session_status).toBe('queued');
    expect(created.scaled_bbox).toEqual([-1, 1.8, -1]);
    const done = await until(
      () => client.getImageTo3d(created.session_code),
      (s) => s.session_status === 'complete',
    );
    expect(done.percent_done).toBe(100);
    for (const url of [done.mesh_url_glb, done.mesh_url_obj, done.mesh_url_zip, done.mesh_url_fbx])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1/);
    const glb = await fetch(done.mesh_url_glb);
    expect(glb.status).toBe(200);
    expect(Buffer.from(await glb.arrayBuffer()).toString('latin1', 0, 4)).toBe('glTF');
    const list = await client.listImageTo3d({ limit: 5 });
    expect(list.results.map((s) => s.session_code)).toContain(created.session_code);
    expect(typeof list.credits).toBe('number');
    const mesh = await client.getMesh(created.session_code);
    expect(mesh[0]!.mesh_url_glb).not.toBe('');
  });

  it('the older flow at the legacy address: spin, preview with spin choice, refine', async () => {
    const created = await client.createImageTo3dLegacy({ image_url: png });
    expect(created.status).toBe('uploaded');
    const spun = await until(
      () => client.listImageTo3d({ limit: 50 }),
      (l) => l.results.find((s) => s.session_code === created.session_code)?.status === 'spin_generate_done',
    );
    const older = spun.results.find((s) => s.session_code === created.session_code)!;
    expect(older.inference).toHaveLength(4);
    await client.submitSpin({ session_code: created.session_code, image_urls: [png] });
    await until(
      () => client.getMesh(created.session_code),
      (m) => m[0]!.status === 'spin_generate_done',
    );
    const ack = await client.preview(created.session_code, { selected_spin_index: 2, pivot_point: [0, -0.5, 0] });
    expect(ack.scenario).toBe(created.session_code);
    expect(ack.status).toBe('unprocessed');
    expect(ack.complete_job_data?.task_data).toMatchObject({ selected_spin_index: 2 });
    const preview = await until(
      () => client.getMesh(created.session_code),
      (m) => m[0]!.status === 'preview_done',
    );
    expect(preview[0]!.preview_mesh_url_glb).not.toBe('');
    await client.refine(created.session_code, {});
    await until(
      () => client.getMesh(created.session_code),
      (m) => m[0]!.status === 'refine_done',
    );
  });

  it('text-to-image with a trained style', async () => {
    // At real speed a style trains for minutes: a session using it meanwhile waits for the training.
    const slow = await startTestEngine({ speed: 1 });
    const slowClient = new ServiceClient({ baseUrl: slow.url, apiKey: KEY });
    try {
      const training = await slowClient.createStyle({ zip_url: inputUrl('style.zip'), description: 'ink drawing' });
      expect(training.status).toBe('training');
      expect(training.is_public).toBe(false);
      const early = await slowClient.createTextToImage({ prompt: 'a wooden chair', style_id: training.style_id });
      expect(early).toMatchObject({ style_id: training.style_id, status: 'processing', image_url: '' });
    } finally {
      await slowClient.close();
      await slow.dispose();
    }
    // Once trained, it is usable.
    const style = await client.createStyle({ zip_url: inputUrl('style.zip'), description: 'ink drawing' });
    const created = (await until(
      () => client.createTextToImage({ prompt: 'a wooden chair', style_id: style.style_id }).catch(() => undefined),
      (s) => s !== undefined,
    ))!;
    expect(created.style_id).toBe(style.style_id);
    expect(['in_progress', 'processing']).toContain(created.status);
    const done = await until(
      () => client.getTextToImage(created.session_code),
      (s) => s.status === 'completed',
    );
    expect(done.image_url).toMatch(/^http/);
  });

  it('animation: FBX upload as multipart, text prompts, session with 17 joints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-'));
    const fbx = join(dir, 'hero.fbx');
    writeFileSync(fbx, riggedCharacter());
    const upload = await client.uploadAnimationMesh({ file: fbx });
    expect(upload.status).toBe('init_processing');
    const ready = await until(
      () => client.getAnimation(upload.session_code),
      (s) => s.status === 'predefined_done',
    );
    expect(Object.keys(ready.animation_joint_dict)).toHaveLength(17);
    expect(ready.animation_library.length).toBeGreaterThan(0);
    const multi = await client.submitTextAnimations({
      session_code: upload.session_code,
      texts: ['walk forward', 'qzxv blorp'],
    });
    expect(multi.responses.map((r) => r.isError)).toEqual([false, true]);
    const animated = await until(
      () => client.getAnimation(upload.session_code),
      (s) => s.prompts.some((p) => p.status === 'text_done'),
    );
    expect(animated.prompts.find((p) => p.text === 'walk forward')!.mesh_url).toMatch(/^http/);
    const byUrl = await client.uploadAnimationMesh({ mesh_url: inputUrl('hero.fbx') });
    expect(byUrl.session_code).toMatch(/^SESSION_/);
  });

  it('retopology on /v3 without envelope', async () => {
    const created = await client.createRetopology({
      type: 'retopology',
      input: { mesh: inputUrl('in.glb'), model: 'swift', quads: true },
    });
    expect(created.status).toBe('incomplete');
    const done = await until(
      () => client.getV3Session(created._id),
      (s) => s.status === 'complete',
    );
    const meshes = (done.output as { meshes: { data: { obj_url: string; image_url: string } }[] }).meshes;
    expect(meshes[0]!.data.obj_url).toMatch(/^http/);
    expect(meshes[0]!.data.image_url).toMatch(/^http/);
  });
});

describe('requests rejected before they leave the machine', () => {
  it.each([
    ['createImageTo3d', { body: { image_url: 'hello' } }, 'image_url'],
    ['createImageTo3d', { body: { image_url: png, scaled_bbox: [0, 1, 1] } }, 'scaled_bbox[0]'],
    ['createImageTo3d', { body: { image_url: png, texture_model: 'shiny' } }, 'texture_model'],
    ['preview', { params: { session_code: 'SESSION_x' }, body: { selected_spin_index: 7 } }, 'selected_spin_index'],
    ['preview', { params: { session_code: 'SESSION_x' }, body: { pivot_point: [1, 0, 0] } }, 'pivot_point[0]'],
    ['refine', { params: { session_code: 'bad' }, body: {} }, 'session_code'],
    ['createRetopology', { body: { type: 'remesh', input: { mesh: 'ASSET_1' } } }, 'type'],
    ['createRetopology', { body: { type: 'retopology', input: { mesh: 'file.glb' } } }, 'input.mesh'],
    ['submitTextAnimations', { body: { session_code: 'SESSION_x', texts: [''] } }, 'texts[0]'],
    ['createTextToImage', { body: { prompt: '' } }, 'prompt'],
  ] as const)('%s %j → %s', async (id, args, field) => {
    const before = engine.faults.requestCount();
    const error = await rejection(client.call(id, args as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toContain(field);
    expect(error.exitCode).toBe(2);
    expect(engine.faults.requestCount()).toBe(before);
  });
});

describe('service errors', () => {
  it('an unknown session is a 404 with the envelope message', async () => {
    const error = await rejection(client.getImageTo3d('SESSION_doesnotexist'));
    expect(error).toBeInstanceOf(ServiceResponseError);
    expect(error.status).toBe(404);
    expect(error.serviceMessage).toMatch(/SESSION_doesnotexist/);
    expect(error.exitCode).toBe(3);
    expect(error.retryable).toBe(false);
  });

  it('a wrong key is a 401 that says to check the key, without showing it', async () => {
    const wrong = new ServiceClient({ baseUrl: engine.url, apiKey: 'sk_wrong_key_abcdefghijklmnop' });
    const error = await rejection(wrong.listImageTo3d());
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/API key/);
    expect(error.message).not.toContain('sk_wrong_key_abcdefghijklmnop');
    await wrong.close();
  });
});

describe('injected faults', () => {
  it('429 with Retry-After on a read: retried after at least that long', async () => {
    sleeps.length = 0;
    engine.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 3, match: { endpoint: 'listImageTo3d' } });
    const list = await client.listImageTo3d();
    expect(list.results.length).toBeGreaterThan(0);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(3000);
  });

  it.each([500, 502, 503] as const)('%i on a read: retried and succeeds', async (status) => {
    const before = engine.faults.requestCount('listImageTo3d');
    engine.faults.add({ kind: 'status', status, match: { endpoint: 'listImageTo3d' } });
    await client.listImageTo3d();
    expect(engine.faults.requestCount('listImageTo3d') - before).toBe(2);
  });

  it('503 on a create: not retried, reported as safe to retry later', async () => {
    const before = engine.faults.requestCount('createTextToImage');
    engine.faults.add({ kind: 'status', status: 503, match: { endpoint: 'createTextToImage' } });
    const error = await rejection(client.createTextToImage({ prompt: 'a lamp' }));
    expect(error.status).toBe(503);
    expect(engine.faults.requestCount('createTextToImage') - before).toBe(1);
  });

  it('an HTML 502 from a proxy becomes a clear error', async () => {
    engine.faults.add({ kind: 'status', status: 502, htmlBody: true, times: 10, match: { endpoint: 'getMesh' } });
    const error = await rejection(client.getMesh('SESSION_whatever'));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/not JSON/);
    engine.faults.clear();
  });

  it('a connection reset on a read is retried; on a create it is not', async () => {
    engine.faults.add({ kind: 'reset', match: { endpoint: 'listImageTo3d' } });
    await client.listImageTo3d();
    const before = engine.faults.requestCount('createTextToImage');
    engine.faults.add({ kind: 'reset', match: { endpoint: 'createTextToImage' } });
    const error = await rejection(client.createTextToImage({ prompt: 'a lamp' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.exitCode).toBe(5);
    expect(engine.faults.requestCount('createTextToImage') - before).toBe(1);
  });

  it('a truncated body on a read is retried; when it persists the error says so', async () => {
    engine.faults.add({ kind: 'truncate', match: { endpoint: 'listImageTo3d' } });
    await client.listImageTo3d();
    engine.faults.add({ kind: 'truncate', times: 10, match: { endpoint: 'listImageTo3d' } });
    const error = await rejection(client.listImageTo3d());
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toMatch(/cut off/);
    engine.faults.clear();
  });

  it('a slow answer past the headers timeout becomes a TimeoutError (exit 4)', async () => {
    const impatient = new ServiceClient({
      baseUrl: engine.url,
      apiKey: KEY,
      headersTimeoutMs: 300,
      retry: { maxAttempts: 1 },
    });
    engine.faults.add({ kind: 'slow', delayMs: 3000, match: { endpoint: 'getTextToImage' } });
    const error = await rejection(impatient.getTextToImage('SESSION_slow'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.exitCode).toBe(4);
    expect(error.message).toMatch(/did not answer within/);
    await impatient.close();
  });

  it('"processed but dropped the response": the create fails here but the session exists', async () => {
    engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createImageTo3d' } });
    const before = (await client.listImageTo3d({ limit: 100 })).totalResults;
    const error = await rejection(client.createImageTo3d({ image_url: png }));
    expect(error.kind === 'network' || error.kind === 'protocol').toBe(true);
    const after = (await client.listImageTo3d({ limit: 100 })).totalResults;
    expect(after).toBe(before + 1);
  });
});
