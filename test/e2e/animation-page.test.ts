// e2e (#24 item 3): an animation job's page at 1440×900 is as roomy as any job's. Its 3D view is as large as
// an image-to-3D job's, the 17 joints' picture is shown below it at its render's own size with a hover target
// of at least 24 px per joint, and the skeleton overlay leaves out Male_Casual.fbx's rig helpers (its IK pole
// targets and end bones: bones that move no vertex) until "Helper bones" is ticked. The page's screenshot goes
// to docs/screenshots/viewer-joints.png.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { poll, textOf } from './harness.ts';
import { useViewerHarness } from './viewer-page.ts';

const h = useViewerHarness('');
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const WAIT = 120_000;

/** The size of the job page's 3D view once its model is shown and still. */
async function viewSize(scope: string): Promise<{ width: number; height: number }> {
  const viewer = h.page.locator(`${scope} .viewer`.trim()).first();
  await poll(async () => (await viewer.getAttribute('data-state')) ?? '', WAIT).toBe('ready');
  const box = (await viewer.locator('.viewer-canvas').boundingBox())!;
  return { width: Math.round(box.width), height: Math.round(box.height) };
}

describe('the animation page at 1440×900', () => {
  let modelView: { width: number; height: number };

  it('an image-to-3D job’s view, for comparison', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 1440, height: 900 });
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'robot.png')).toString('base64')}`;
    const { job } = await h.call('create', { endpoint: 'createImageTo3d', body: { image_url: image } });
    await h.go(`#/job/${job.id}`);
    modelView = await viewSize('');
    expect(modelView.width).toBeGreaterThan(800);
  });

  it('gives the animation job the same view, the joints below it with 24 px targets, and hides rig helpers', async () => {
    const { page } = h;
    await h.go('#/create/animation');
    await page.setInputFiles('#anim-file', realFixture('fbx', 'Male_Casual.fbx'));
    await page.click('button:has-text("Upload mesh")');
    await poll(textOf(page.locator('.create-form').first().locator('.created .badge')), WAIT).toBe('Done');
    await poll(() => page.locator('#prompts-session').inputValue()).toMatch(/^SESSION_/);
    const code = await page.locator('#prompts-session').inputValue();
    const { jobs } = await h.call('jobs.list', { search: code, limit: 10 });
    const job = (jobs as { id: string; kind: string }[]).find((j) => j.kind === 'animation_session')!;
    await h.go(`#/job/${job.id}`);

    // The same large 3D view as the image-to-3D job's (it was 471×294 beside the joints).
    const view = await viewSize('.animation-preview');
    expect(view).toEqual(modelView);

    // The joints' picture: below the view, at its render's own size (512 px), readable.
    const overlay = page.locator('.joint-overlay');
    await poll(() => overlay.locator('circle.joint-dot').count(), WAIT).toBe(17);
    const canvas = (await page.locator('.animation-preview .viewer-canvas').boundingBox())!;
    const picture = (await overlay.locator('img').boundingBox())!;
    expect(picture.y).toBeGreaterThanOrEqual(canvas.y + canvas.height);
    expect(Math.round(picture.width)).toBe(512);

    // Each joint reacts within a circle of at least 24 px across on the screen (the dots were 7 px).
    const targets = await overlay.locator('g[data-joint]').evaluateAll((gs: any[]) =>
      gs.map((g) => {
        const r = g.querySelector('.joint-hit').getBoundingClientRect();
        return { name: g.dataset.joint, width: r.width, height: r.height };
      }),
    );
    expect(targets).toHaveLength(17);
    for (const t of targets) {
      expect(t.width, `${t.name} target width`).toBeGreaterThanOrEqual(24);
      expect(t.height, `${t.name} target height`).toBeGreaterThanOrEqual(24);
    }
    // Pointing at a joint 10 px off its dot still reaches it.
    await overlay.scrollIntoViewIfNeeded();
    const knee = (await overlay.locator('g[data-joint="L_Knee"] .joint-dot').boundingBox())!;
    await page.mouse.move(knee.x + knee.width / 2 + 10, knee.y + knee.height / 2);
    await poll(async () => overlay.locator('g.joint.hot').getAttribute('data-joint')).toBe('L_Knee');
    await page.mouse.move(0, 0);

    // The skeleton: Male_Casual.fbx's rig helpers (PoleTarget.L/R and the end bones move no vertex) left out.
    const stage = page.locator('.animation-preview .viewer-canvas');
    await poll(async () => (await stage.getAttribute('data-rendering')) ?? '', WAIT).toBe('idle');
    await page.check('.anim-skeleton');
    await poll(async () => (await stage.getAttribute('data-skeleton-lines')) ?? '').not.toBe('');
    const drawn = Number(await stage.getAttribute('data-skeleton-lines'));
    const toggle = page.locator('.anim-helper-bones');
    const label = await textOf(page.locator('label:has(.anim-helper-bones)'))();
    const helpers = Number(/Helper bones \((\d+)\)/.exec(label)?.[1]);
    expect(helpers).toBeGreaterThanOrEqual(2);
    expect(await page.locator('label:has(.anim-helper-bones)').getAttribute('title')).toMatch(
      /PoleTarget\.L\b.*PoleTarget\.R\b/,
    );
    await poll(textOf(page.locator('.anim-helper-hint'))).toContain('bones hidden: they move no vertex');
    expect(await toggle.isChecked()).toBe(false);
    await poll(async () => (await stage.getAttribute('data-rendering')) ?? '', WAIT).toBe('idle');
    await page.locator('g[data-joint="L_Knee"]').focus();
    await poll(async () => (await stage.getAttribute('data-rendering')) ?? '', WAIT).toBe('idle');
    const shot = await h.screenshot('animation-page', page.locator('.animation-preview .viewer'));
    copyFileSync(shot, join(DOCS, 'viewer-joints.png'));

    // Asked for, the helpers are drawn too (each a line to its parent), and hidden again when unticked.
    await toggle.check();
    await poll(async () => Number(await stage.getAttribute('data-skeleton-lines'))).toBe(drawn + helpers);
    expect(await page.locator('.anim-helper-hint').count()).toBe(0);
    await toggle.uncheck();
    await poll(async () => Number(await stage.getAttribute('data-skeleton-lines'))).toBe(drawn);
    expect(h.offHost()).toEqual([]);
    expect(h.pageErrors.filter((e) => !e.includes('favicon'))).toEqual([]);
  });
});
