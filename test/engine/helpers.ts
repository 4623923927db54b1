// Shared helpers of the engine tests: engines in temp folders, a small fetch wrapper, polling, and loopback
// servers for the inputs tests name by URL (the engine reads its inputs; this machine has no internet).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ENDPOINTS, fillPath, type EndpointId } from '../../shared/contract/index.ts';
import { startLocalEngine, type LocalEngineOptions, type RunningLocalEngine } from '../../main/engine/engine.ts';
import { buildFbxBinary, buildGlb, buildZip, encodePng } from '../../main/engine/outputs/index.ts';
import { realFixture } from '../fixtures.ts';

export const KEY = 'sk_test_engine_0123456789';
export const SPEED = 1000;

export interface TestEngine extends RunningLocalEngine {
  dataDir: string;
  /** Closes the engine and removes its folder. */
  dispose(): Promise<void>;
}

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'asset-studio-engine-'));
}

export async function startTestEngine(options: Partial<LocalEngineOptions> = {}): Promise<TestEngine> {
  const dataDir = options.dataDir ?? (await makeDataDir());
  const engine = await startLocalEngine({ apiKey: KEY, speed: SPEED, ...options, dataDir });
  return {
    ...engine,
    dataDir,
    async dispose() {
      await engine.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The engine of a test file (useTestEngine), which a test may restart on the same data. */
export interface FileEngine extends TestEngine {
  /** Closes the engine and starts another on its data folder with `options` (the file's first options dropped). */
  restart(options?: Partial<LocalEngineOptions>): Promise<void>;
}

/**
 * The engine of a test file: started (with `options`) before its tests, disposed after them. The object is
 * filled in by that beforeAll, so read its fields inside tests and hooks, not at the file's top level.
 */
export function useTestEngine(options: Partial<LocalEngineOptions> = {}): FileEngine {
  const engine = {
    async restart(again: Partial<LocalEngineOptions> = {}) {
      await engine.close();
      Object.assign(engine, await startTestEngine({ ...again, dataDir: engine.dataDir }));
    },
  } as FileEngine;
  beforeAll(async () => {
    Object.assign(engine, await startTestEngine(options));
  });
  afterAll(() => engine.dispose());
  return engine;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function send(
  url: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string>; body?: RequestInit['body'] } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-key': KEY, ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? (init.json !== undefined || init.body !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

/** Calls an endpoint of the table at the right address. */
export function call(
  engine: RunningLocalEngine,
  id: EndpointId,
  options: { params?: Record<string, string>; json?: unknown; query?: string } = {},
): Promise<Answer> {
  const def = ENDPOINTS[id];
  const base = def.base === 'legacy' ? engine.legacyUrl : engine.url;
  const url = `${base}${fillPath(def.path, options.params ?? {})}${options.query ? `?${options.query}` : ''}`;
  return send(url, { method: def.method, ...(options.json !== undefined ? { json: options.json } : {}) });
}

/** Checks status, message and data schema of a success answer against the table; returns the data. */
export function expectSuccess(id: EndpointId, answer: Answer): any {
  const def = ENDPOINTS[id];
  expect(answer.status, JSON.stringify(answer.body)).toBe(def.status);
  if (!def.envelope) {
    def.data.parse(answer.body);
    return answer.body;
  }
  expect(answer.body).toMatchObject({ error: '', message: def.message, statusCode: def.status });
  def.data.parse(answer.body.data);
  return answer.body.data;
}

/** Checks an error envelope: status, error text, and that the message mentions each of `mentions`. */
export function expectError(answer: Answer, status: number, ...mentions: string[]): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ statusCode: status });
  expect(typeof answer.body.error).toBe('string');
  expect(answer.body.error).not.toBe('');
  for (const m of mentions) expect(answer.body.message).toContain(m);
}

/** Polls `read` until `done` holds (at most `limitMs`); returns the last value. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, limitMs = 10_000): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until)
      throw new Error(`condition not reached in ${limitMs} ms; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

/** The mesh-animation upload of the file `bytes` named `name`, as a multipart form (with the text `fields` first). */
export function uploadAnimationFile(
  engine: RunningLocalEngine,
  bytes: Uint8Array,
  name: string,
  fields: Record<string, string> = {},
): Promise<Answer> {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return send(`${engine.url}/mesh-animation/upload`, { body: form });
}

/** A mesh-animation session as getAnimation answers it. */
export async function animationSession(engine: RunningLocalEngine, code: string): Promise<any> {
  return expectSuccess('getAnimation', await call(engine, 'getAnimation', { params: { session_code: code } }));
}

/** The mesh-animation session once its library clips are made (or it failed); `limitMs` caps a hung one. */
export function animationReady(engine: RunningLocalEngine, code: string, limitMs?: number): Promise<any> {
  return pollUntil(
    () => animationSession(engine, code),
    (s) => s.status === 'predefined_done' || s.status.endsWith('_failed'),
    limitMs,
  );
}

/** Text prompts `texts` sent to the mesh-animation session `code` (submitTextAnimations): the answer's data. */
export async function submitTexts(engine: RunningLocalEngine, code: string, texts: string[]): Promise<any> {
  return expectSuccess(
    'submitTextAnimations',
    await call(engine, 'submitTextAnimations', { json: { session_code: code, texts } }),
  );
}

/** The mesh-animation session `code` once it holds `count` prompts, all animated; `limitMs` caps a hung one. */
export function animatedPrompts(
  engine: RunningLocalEngine,
  code: string,
  count: number,
  limitMs?: number,
): Promise<any> {
  return pollUntil(
    () => animationSession(engine, code),
    (s) => s.prompts.length === count && s.prompts.every((p: { status: string }) => p.status === 'text_done'),
    limitMs,
  );
}

/**
 * An image-to-3D session of the request `json`, created and followed until it ends (complete or failed);
 * `limitMs` caps a hung one.
 */
export async function endedImageTo3d(
  engine: RunningLocalEngine,
  json: Record<string, unknown>,
  limitMs?: number,
): Promise<{ created: any; done: any }> {
  const created = expectSuccess('createImageTo3d', await call(engine, 'createImageTo3d', { json }));
  const done = await pollUntil(
    async () =>
      expectSuccess(
        'getImageTo3d',
        await call(engine, 'getImageTo3d', { params: { session_code: created.session_code } }),
      ),
    (s) => s.session_status === 'complete' || s.session_status === 'failed',
    limitMs,
  );
  return { created, done };
}

/** A low-poly image-to-3D session of the input `image` (inputUrl), created and followed until complete. */
export async function completedImageTo3d(
  engine: RunningLocalEngine,
  image = 'a.png',
): Promise<{ created: any; done: any }> {
  const ended = await endedImageTo3d(engine, { image_url: inputUrl(image), resolution: 'low_poly' });
  expect(ended.done.session_status, JSON.stringify(ended.done)).toBe('complete');
  return ended;
}

/** A retopology session of `input` (its mesh and options), created: the create's answer. */
export async function createRetopology(engine: RunningLocalEngine, input: Record<string, unknown>): Promise<any> {
  return expectSuccess(
    'createRetopology',
    await call(engine, 'createRetopology', { json: { type: 'retopology', input } }),
  );
}

/** The v3 session `id` as getV3Session answers it. */
export async function v3Session(engine: RunningLocalEngine, id: string): Promise<any> {
  return expectSuccess('getV3Session', await call(engine, 'getV3Session', { params: { session_id: id } }));
}

/** The v3 session `id` once it has ended (complete or failed); `limitMs` caps a hung one. */
export function endedV3Session(engine: RunningLocalEngine, id: string, limitMs?: number): Promise<any> {
  return pollUntil(
    () => v3Session(engine, id),
    (s) => s.status !== 'incomplete',
    limitMs,
  );
}

/** A text-to-image session of `json` (its prompt, maybe a style), created and followed until completed. */
export async function completedTextToImage(engine: RunningLocalEngine, json: Record<string, unknown>): Promise<any> {
  const created = expectSuccess('createTextToImage', await call(engine, 'createTextToImage', { json }));
  return textToImageCompleted(engine, created.session_code);
}

/** The text-to-image session `code`, followed until completed. */
export function textToImageCompleted(engine: RunningLocalEngine, code: string): Promise<any> {
  return pollUntil(
    async () =>
      expectSuccess('getTextToImage', await call(engine, 'getTextToImage', { params: { session_code: code } })),
    (s) => s.status === 'completed',
  );
}

export async function download(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Checks that `bytes` start as a PNG file does. */
export function expectPng(bytes: Uint8Array): void {
  expect(Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE), 'a PNG signature').toBe(true);
}
export const PNG_DATA_URI =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * Small valid inputs by extension: images, a GLB, an FBX (a rigged humanoid: the engine animates characters
 * with their own skeleton and refuses a mesh with no bones, its own generated models included), and a zip
 * holding that FBX and PNGs (an animation upload or a style).
 */
const INPUT_IMAGE = encodePng(4, 4, new Uint8Array(64).fill(170));
const INPUT_CHARACTER = readFileSync(realFixture('fbx', 'maya_kenney_character_7700_binary.fbx'));
const INPUT_FILES: Record<string, [type: string, bytes: Buffer]> = {
  '.png': ['image/png', INPUT_IMAGE],
  '.jpg': ['image/png', INPUT_IMAGE],
  '.glb': ['model/gltf-binary', buildGlb({ seed: 'test-input', targetFaces: 200 })],
  '.fbx': ['application/octet-stream', INPUT_CHARACTER],
  // A model this engine generated (no bones): `inputUrl('chair.generated-fbx')`.
  '.generated-fbx': ['application/octet-stream', buildFbxBinary('test-input', { targetFaces: 200 })],
  '.zip': [
    'application/zip',
    buildZip([
      { name: 'hero.fbx', data: INPUT_CHARACTER },
      { name: 'style/one.png', data: INPUT_IMAGE },
    ]),
  ],
};

/** The loopback server of this test file's inputs: any path ending in .png, .jpg, .glb, .fbx, .generated-fbx or .zip answers such a file; others 404. */
const inputServer = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const file = INPUT_FILES[path.slice(path.lastIndexOf('.'))];
  if (file === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  res.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length }).end(file[1]);
});
await new Promise<void>((resolve) => inputServer.listen(0, '127.0.0.1', resolve));
inputServer.unref();
const INPUT_BASE = `http://127.0.0.1:${(inputServer.address() as AddressInfo).port}`;

/** A URL the engine can read for an input named `path` (e.g. `chair.png`, `models/statue.glb`, `hero.fbx`, `ink.zip`). */
export function inputUrl(path: string): string {
  return `${INPUT_BASE}/${path}`;
}

/**
 * A loopback server of the bytes a test file makes for the engine to read by URL: `served.set('/x.glb', bytes)`
 * (others answer 404), `url('/x.glb')` its address. Started before the tests of the file or describe block
 * that calls this (before the hooks it registers afterwards), closed after them.
 */
export function useServedFiles(contentType: string): { served: Map<string, Buffer>; url(path: string): string } {
  const served = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const body = served.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': contentType, 'content-length': body.length }).end(body);
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { served, url: (path) => `${base}${path}` };
}
