import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  download,
  expectSuccess,
  inputUrl,
  KEY,
  makeDataDir,
  pollUntil,
  send,
  startTestEngine,
  type TestEngine,
} from '../../engine/helpers.ts';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
beforeEach(() => engine.faults.clear());
afterAll(() => engine.dispose());

const list = () => call(engine, 'listImageTo3d');

describe('fault injection', () => {
  it('status 429 carries Retry-After, then the rule is used up', async () => {
    engine.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 3, match: { endpoint: 'listImageTo3d' } });
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.body).toMatchObject({ error: 'Too Many Requests', statusCode: 429, data: null });
    expect((await list()).status).toBe(200);
    expect(engine.faults.list()).toEqual([]);
  });

  it.each([500, 502, 503] as const)('status %i, as JSON or as a proxy HTML page', async (status) => {
    engine.faults.add({ kind: 'status', status, times: 2 });
    const json = await list();
    expect(json.status).toBe(status);
    expect(json.body.statusCode).toBe(status);
    engine.faults.clear();
    engine.faults.add({ kind: 'status', status, htmlBody: true });
    const html = await list();
    expect(html.status).toBe(status);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(html.body).toContain('<html>');
  });

  it('reset closes the connection before answering', async () => {
    engine.faults.add({ kind: 'reset', match: { method: 'GET' } });
    await expect(list()).rejects.toThrow();
    expect((await list()).status).toBe(200);
  });

  it('truncate sends half the body with the full length', async () => {
    engine.faults.add({ kind: 'truncate', match: { endpoint: 'listImageTo3d' } });
    const res = await fetch(`${engine.url}/image-to-3d-sessions`, { headers: { 'x-api-key': KEY } });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    await expect(res.text()).rejects.toThrow();
  });

  it('truncate works on files too', async () => {
    const session = expectSuccess(
      'createImageTo3d',
      await call(engine, 'createImageTo3d', { json: { image_url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==' } }),
    );
    engine.faults.add({ kind: 'truncate', match: { endpoint: 'files' } });
    await expect(download(session.image_url)).rejects.toThrow();
    expect((await download(session.image_url)).status).toBe(200);
  });

  it('slow delays the answer', async () => {
    engine.faults.add({ kind: 'slow', delayMs: 2000, match: { endpoint: 'listImageTo3d' } });
    await expect(
      fetch(`${engine.url}/image-to-3d-sessions`, { headers: { 'x-api-key': KEY }, signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow();
    engine.faults.add({ kind: 'slow', delayMs: 50 });
    expect((await list()).status).toBe(200);
  });

  it('drop-response creates the session although the client gets no answer', async () => {
    const before = expectSuccess('listImageTo3d', await list());
    engine.faults.add({ kind: 'drop-response', match: { endpoint: 'createImageTo3d' } });
    await expect(call(engine, 'createImageTo3d', { json: { image_url: inputUrl('dropped.png') } })).rejects.toThrow();
    const after = expectSuccess('listImageTo3d', await list());
    expect(after.totalResults).toBe(before.totalResults + 1);
    expect(after.credits).toBe(before.credits - 10);
    expect(after.results[0].image_url).toBe(inputUrl('dropped.png'));
  });

  it('rules can hit always, and requests are counted per endpoint', async () => {
    const lists = engine.faults.requestCount('listImageTo3d');
    const total = engine.faults.requestCount();
    engine.faults.add({ kind: 'status', status: 503, times: -1, match: { endpoint: 'getTextToImage' } });
    for (let i = 0; i < 3; i++)
      expect((await call(engine, 'getTextToImage', { params: { session_code: 'SESSION_x' } })).status).toBe(503);
    expect(engine.faults.list()).toHaveLength(1);
    await list();
    expect(engine.faults.requestCount('listImageTo3d')).toBe(lists + 1);
    expect(engine.faults.requestCount('getTextToImage')).toBeGreaterThanOrEqual(3);
    expect(engine.faults.requestCount()).toBe(total + 4);
  });

  it('rules can be replaced over HTTP, with the API key', async () => {
    const rules = [{ kind: 'status', status: 502, times: -1, match: { endpoint: 'listImageTo3d' } }];
    expect(
      (await send(`${engine.url}/__engine/faults`, { json: rules, headers: { 'x-api-key': 'wrong' } })).status,
    ).toBe(401);
    const bad = await send(`${engine.url}/__engine/faults`, { json: [{ kind: 'status', status: 418 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('429, 500, 502 or 503');
    const set = await send(`${engine.url}/__engine/faults`, { json: rules });
    expect(set.status).toBe(200);
    expect(set.body.rules).toEqual(rules);
    expect((await list()).status).toBe(502);
    expect((await send(`${engine.url}/__engine/faults`, { json: [] })).body.rules).toEqual([]);
    expect((await list()).status).toBe(200);
  });
});

describe('run.ts in a child process', () => {
  it('prints its addresses and applies ASSET_STUDIO_ENGINE_FAULTS', async () => {
    const dataDir = await makeDataDir();
    const child = spawn(
      process.execPath,
      [
        fileURLToPath(new URL('../../../main/engine/run.ts', import.meta.url)),
        '--data-dir',
        dataDir,
        '--speed',
        '1000',
      ],
      {
        env: {
          ...process.env,
          ASSET_STUDIO_API_KEY: KEY,
          ASSET_STUDIO_ENGINE_FAULTS: JSON.stringify([{ kind: 'status', status: 503, retryAfterSeconds: 1 }]),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const [line] = await Promise.race([
        createInterface({ input: child.stdout })
          [Symbol.asyncIterator]()
          .next()
          .then((r) => [r.value as string]),
        new Promise<never>((_, reject) =>
          child.once('exit', (code) => reject(new Error(`run.ts exited with ${code}`))),
        ),
      ]);
      const { url, legacyUrl } = JSON.parse(line!) as { url: string; legacyUrl: string };
      expect(legacyUrl).not.toBe(url);
      const first = await send(`${url}/image-to-3d-sessions`);
      expect(first.status).toBe(503);
      expect(first.headers.get('retry-after')).toBe('1');
      const created = await send(`${legacyUrl}/image-to-3d-sessions`, { json: { image_url: inputUrl('a.png') } });
      expect(created.status).toBe(201);
      const listed = await pollUntil(
        () => send(`${url}/image-to-3d-sessions`),
        (a) => a.body.data?.results?.[0]?.status === 'spin_generate_done',
      );
      expect(listed.body.data.totalResults).toBe(1);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
