// e2e (#31 item 7): the viewer's LOD switch on a job page, in Chromium through the local web host. The levels are
// the export's own chain for the chosen profile (made in main, bridge export.lodPreview): each shown in the viewer
// in place of the model with fewer triangles than the one before, LOD0 within the profile's budget, and back to
// the original.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { poll } from './harness.ts';
import { modelShown, stat, useViewerHarness } from './viewer-page.ts';

const h = useViewerHarness('');
/** The job page's preview section (its viewer, the LOD switch under it). */
const PREVIEW = 'section[aria-labelledby="job-preview-heading"]';

describe('the LOD switch', () => {
  it('shows each level of the profile’s chain in the viewer, fewer triangles each, and the original again', async () => {
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
    const created = await h.call('create', {
      endpoint: 'createImageTo3d',
      body: { image_url: image },
      label: 'chair.png',
    });
    await poll(async () => {
      const { outputs } = await h.call('cache.outputs', { sessionId: created.job.remoteId });
      return (outputs as { kind: string; state: string }[]).some((o) => o.kind === 'glb' && o.state === 'complete');
    }).toBe(true);
    const { page } = h;
    await h.go(`#/job/${created.job.id}`);
    await modelShown(h, { scope: PREVIEW });
    const original = await stat(h, 'triangles', PREVIEW);

    const lods = page.locator('.lod-switch');
    await lods.locator('button[data-lod="0"]').click();
    await poll(() => lods.locator('[data-lod-shown]').getAttribute('data-lod-shown'), 120_000).toBe('0');
    const levels = await lods.locator('button[data-lod]').count();
    expect(levels).toBeGreaterThanOrEqual(3); // LOD0 and the profile's levels (two or three for the built-in ones)
    await modelShown(h, { scope: PREVIEW, name: `chair.png_LOD0.glb` });
    const counts = [await stat(h, 'triangles', PREVIEW)];
    expect(counts[0]).toBeLessThanOrEqual(original); // LOD0: the model within the profile's budget
    for (let level = 1; level < levels; level++) {
      await lods.locator(`button[data-lod="${level}"]`).click();
      await modelShown(h, { scope: PREVIEW, name: `chair.png_LOD${level}.glb` });
      counts.push(await stat(h, 'triangles', PREVIEW));
      expect(counts[level]!, `LOD${level}`).toBeLessThan(counts[level - 1]!);
    }
    expect(await lods.locator('[data-lod-shown]').innerText()).toMatch(/LOD2: [\d,]+ triangles, simplifier error/);
    await h.screenshot('lod-switch', page.locator(PREVIEW));
    await lods.locator('button:has-text("Original")').click();
    await poll(() => stat(h, 'triangles', PREVIEW), 60_000).toBe(original);
  });
});
