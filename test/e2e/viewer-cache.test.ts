// e2e: the viewer opens a model from the download cache (offline review of downloaded assets): a finished
// job's GLB is listed on #/viewer under "Or open a downloaded model", opens from the host's /cache/ route,
// renders, and no request leaves this machine.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { openApp, poll, startHarness, type Harness } from './harness.ts';

declare const location: { hash: string };

const SHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'viewer');
let h: Harness;
const offHost: string[] = [];
const requests: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness({ webgl: true });
  h.page.on('request', (r) => {
    const url = new URL(r.url());
    requests.push(url.pathname);
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') offHost.push(r.url());
  });
  await openApp(h);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function call(command: string, input: unknown): Promise<any> {
  return h.page.evaluate(
    async ([c, i]) => {
      const r = await fetch(`/api/call/${c}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(i) });
      return r.json();
    },
    [command, input] as const,
  );
}

describe('viewer: open from the cache', () => {
  it('lists a finished job’s GLB and opens it from the cache', async () => {
    const { page } = h;
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'robot.png')).toString('base64')}`;
    const { job } = await call('create', { endpoint: 'createImageTo3d', body: { image_url: image } });
    await poll(async () => {
      const { models } = await call('cache.models', {});
      return models.some((m: { sessionId: string; kind: string }) => m.sessionId === job.remoteId && m.kind === 'glb');
    }, 60_000).toBe(true);

    await page.evaluate(() => (location.hash = '#/viewer'));
    const select = page.locator('#viewer-cached');
    const value = `${job.remoteId}\nglb`; // the option's value: session and kind
    await poll(async () => (await select.locator('option').allTextContents()).some((t) => t.includes(job.label) && t.includes('GLB')), 20_000).toBe(true);
    await select.selectOption(value);
    const viewer = page.locator('.viewer');
    await poll(async () => `${await viewer.getAttribute('data-state')}`, 30_000).toBe('ready');
    await poll(async () => (await page.locator('.viewer-canvas').getAttribute('data-rendering')) ?? '', 20_000).toBe('idle');
    expect(Number((await viewer.locator('[data-stat="triangles"]').innerText()).replace(/,/g, ''))).toBeGreaterThan(0);
    // The cached file's size, as the cache knows it.
    const { models } = await call('cache.models', {});
    const size = models.find((m: { sessionId: string; kind: string }) => m.sessionId === job.remoteId && m.kind === 'glb').size as number;
    const [, shown, unit] = /^([\d.]+) (KB|MB)$/.exec(await viewer.locator('[data-stat="file-size"]').innerText()) ?? [];
    expect(Math.abs(Number(shown) * 1024 ** (unit === 'MB' ? 2 : 1) - size) / size, 'shown size against the cached size').toBeLessThan(0.06);
    expect(requests).toContain(`/cache/${encodeURIComponent(job.remoteId)}/glb`);
    await viewer.screenshot({ path: join(SHOTS, 'open-from-cache.png') });
    expect(offHost).toEqual([]);
  }, 120_000);
});
