// e2e: the viewer opens a model from the download cache (offline review of downloaded assets): a finished
// job's GLB is listed on #/viewer under "Or open a downloaded model", opens from the host's /cache/ route,
// renders, and no request leaves this machine.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { withCacheCapability } from '../../main/host/token.ts';
import { poll } from './harness.ts';
import { modelShown, stat, useViewerHarness } from './viewer-page.ts';

const h = useViewerHarness('');

describe('viewer: open from the cache', () => {
  it('lists a finished job’s GLB and opens it from the cache', async () => {
    const { page } = h;
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'robot.png')).toString('base64')}`;
    const { job } = await h.call('create', { endpoint: 'createImageTo3d', body: { image_url: image } });
    await poll(async () => {
      const { models } = await h.call('cache.models', {});
      return models.some((m: { sessionId: string; kind: string }) => m.sessionId === job.remoteId && m.kind === 'glb');
    }, 60_000).toBe(true);

    await h.go('#/viewer');
    const select = page.locator('#viewer-cached');
    const value = `${job.remoteId}\nglb`; // the option's value: session and kind
    await poll(
      async () =>
        (await select.locator('option').allTextContents()).some((t) => t.includes(job.label) && t.includes('GLB')),
      20_000,
    ).toBe(true);
    await select.selectOption(value);
    const viewer = page.locator('.viewer');
    await modelShown(h);
    expect(await stat(h, 'triangles')).toBeGreaterThan(0);
    // The cached file's size, as the cache knows it.
    const { models } = await h.call('cache.models', {});
    const size = models.find(
      (m: { sessionId: string; kind: string }) => m.sessionId === job.remoteId && m.kind === 'glb',
    ).size as number;
    const [, shown, unit] =
      /^([\d.]+) (KiB|MiB)$/.exec(await viewer.locator('[data-stat="file-size"]').innerText()) ?? [];
    expect(
      Math.abs(Number(shown) * 1024 ** (unit === 'MiB' ? 2 : 1) - size) / size,
      'shown size against the cached size',
    ).toBeLessThan(0.06);
    expect(h.requestedPaths()).toContain(
      withCacheCapability(`/cache/${encodeURIComponent(job.remoteId)}/glb`, h.host.token),
    );
    await h.screenshot('open-from-cache', viewer);
    expect(h.offHost()).toEqual([]);
  });
});
