// e2e: animation in the viewer, in Chromium with WebGL (SwiftShader). Fox.glb's three clips play (the
// canvas changes while playing and holds still when paused, and the render loop stops), switching clips
// keeps the camera; a mesh-animation job shows its animated GLB with playback and the joint overlay, whose
// 17 points sit where the session's joint dict puts them on the displayed render; no request leaves this
// machine. Screenshots go to test-results/viewer/.
import { describe, expect, it } from 'vitest';
import { JOINT_NAMES } from '../../shared/joints.ts';
import { LIBRARY_CLIPS } from '../engine/library.ts';
import { realFixture } from '../fixtures.ts';
import { canvasRgb, grey } from './canvas.ts';
import { poll, textOf } from './harness.ts';
import { modelShown, openFiles, useViewerHarness } from './viewer-page.ts';

const h = useViewerHarness();

/** The canvas scaled down to 96 pixels wide, as a list of grey levels. */
const canvasGrey = async (selector = '.viewer-canvas') => grey(await canvasRgb(h.page, selector, 96));
const differing = (a: number[], b: number[]) => a.filter((v, i) => Math.abs(v - b[i]!) > 8).length;

describe('viewer animation', () => {
  it('plays the clips of Fox.glb, holds still when paused, and keeps the camera when switching clips', async () => {
    const { page } = h;
    await openFiles(h, realFixture('glb', 'Fox.glb'));
    const canvas = page.locator('.viewer-canvas');
    await modelShown(h);
    const controls = page.locator('.animation-controls');
    expect(await page.locator('#anim-clip option').allTextContents()).toEqual(['Survey', 'Walk', 'Run']);
    const camera = await canvas.getAttribute('data-camera');
    expect(camera).toMatch(/^-?[\d.]+ [\d.]+ [\d.]+$/);

    // Play: the loop runs, the frame moves on, and the pixels change between two moments.
    await page.selectOption('#anim-clip', '1');
    await page.click('.anim-play');
    await poll(async () => (await controls.getAttribute('data-playing')) ?? '').toBe('true');
    expect(await canvas.getAttribute('data-rendering')).toBe('on');
    // (Polled, not timed: a loaded machine renders fewer frames in a given time, but the pose must move on.)
    const a = await canvasGrey();
    const frameA = Number(await page.locator('#anim-frame').inputValue());
    await poll(async () => differing(a, await canvasGrey()) > 20, 15_000).toBe(true);
    await poll(async () => Number(await page.locator('#anim-frame').inputValue()) !== frameA, 15_000).toBe(true);
    await h.screenshot('anim-fox-walk-playing', page.locator('.viewer'));

    // Pause: the loop stops and the picture holds.
    await page.click('.anim-play');
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 10_000).toBe('idle');
    const frames = await canvas.getAttribute('data-frames');
    const c = await canvasGrey();
    const pausedAt = await page.locator('#anim-frame').inputValue();
    await page.waitForTimeout(400);
    expect(differing(c, await canvasGrey()), 'pixels that changed while paused').toBe(0);
    expect(await canvas.getAttribute('data-frames')).toBe(frames);
    expect(await page.locator('#anim-frame').inputValue()).toBe(pausedAt);

    // Scrub: the frame follows the range input and the pose changes.
    // (A quarter of the clip away from where it paused, so the pose is surely another one.)
    const from = Number(await page.locator('#anim-frame').getAttribute('min'));
    const to = Number(await page.locator('#anim-frame').getAttribute('max'));
    const target = Math.round(from + ((Number(pausedAt) - from + (to - from) / 4) % (to - from)));
    await page.locator('#anim-frame').fill(String(target));
    await poll(textOf(page.locator('.anim-frame-value'))).toBe(String(target));
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 10_000).toBe('idle');
    expect(differing(c, await canvasGrey()), 'pixels changed by scrubbing').toBeGreaterThan(20);

    // Switching clips, at another speed, keeps the camera.
    await page.selectOption('#anim-speed', '2');
    await page.selectOption('#anim-clip', '2');
    await page.click('.anim-play');
    await poll(async () => (await controls.getAttribute('data-playing')) ?? '').toBe('true');
    await page.click('.anim-play');
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 10_000).toBe('idle');
    expect(await canvas.getAttribute('data-camera')).toBe(camera);
    expect(await page.locator('#anim-speed').inputValue()).toBe('2');

    // The skeleton as lines over the model.
    await page.check('.anim-skeleton');
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 10_000).toBe('idle');
    await h.screenshot('anim-fox-run-skeleton', page.locator('.viewer'));
    await page.uncheck('.anim-skeleton');
  });

  it('shows a mesh-animation job: its animated FBX plays, and the joint overlay sits on the render', async () => {
    const { page } = h;
    await h.go('#/create/animation');
    await page.setInputFiles('#anim-file', realFixture('fbx', 'Male_Casual.fbx'));
    await page.click('button:has-text("Upload mesh")');
    await poll(textOf(page.locator('.create-form').first().locator('.created .badge')), 60_000).toBe('Done');
    await poll(() => page.locator('#prompts-session').inputValue()).toMatch(/^SESSION_/);
    const code = await page.locator('#prompts-session').inputValue();
    const { jobs } = await h.call('jobs.list', { search: code, limit: 10 });
    const job = (jobs as { id: string; kind: string }[]).find((j) => j.kind === 'animation_session')!;
    expect(job).toBeDefined();
    await h.go(`#/job/${job.id}`);

    // The overlay: 17 points, each where the dict puts it on the displayed image.
    const overlay = page.locator('.joint-overlay');
    await poll(
      async () =>
        (await overlay.locator('circle.joint-dot').count()) === 17 && (await overlay.getAttribute('data-joints')),
      60_000,
    ).toBe('17');
    // The engine's joints of this character (its own skeleton on its front render), as the job recorded them.
    const recorded = (await h.call('jobs.get', { id: job.id })) as {
      result?: { animation_joint_dict?: Record<string, [number, number]> };
    };
    const dict = recorded.result!.animation_joint_dict!;
    expect(dict.Head![1]).toBeLessThan(dict.Pelvis![1]);
    const placed = await overlay.evaluate((el: any) => {
      const img = el.querySelector('img');
      const box = img.getBoundingClientRect();
      const scale = box.width / img.naturalWidth;
      return {
        scale,
        natural: [img.naturalWidth, img.naturalHeight],
        points: [...el.querySelectorAll('g[data-joint]')].map((g: any) => {
          const c = g.querySelector('.joint-dot');
          const r = c.getBoundingClientRect();
          return {
            name: g.dataset.joint,
            cx: Number(c.getAttribute('cx')),
            cy: Number(c.getAttribute('cy')),
            x: r.x + r.width / 2 - box.x,
            y: r.y + r.height / 2 - box.y,
          };
        }),
      };
    });
    expect(placed.natural).toEqual([512, 512]);
    expect(placed.scale).toBeGreaterThan(0.3);
    expect(placed.points.map((p: { name: string }) => p.name)).toEqual([...JOINT_NAMES]);
    for (const p of placed.points as {
      name: (typeof JOINT_NAMES)[number];
      cx: number;
      cy: number;
      x: number;
      y: number;
    }[]) {
      const [x, y] = dict[p.name]!;
      expect([p.cx, p.cy], p.name).toEqual([x, y]);
      expect(Math.abs(p.x - x * placed.scale), `${p.name} x on screen`).toBeLessThan(1);
      expect(Math.abs(p.y - y * placed.scale), `${p.name} y on screen`).toBeLessThan(1);
    }

    // The animated FBX (as the service delivers it): the library's clips, playing; another file keeps the camera.
    const canvas = page.locator('.animation-preview .viewer-canvas');
    await poll(
      async () =>
        `${await page.locator('#anim-file').inputValue()} ${await page.locator('.animation-preview .viewer').getAttribute('data-state')}`,
      30_000,
    ).toBe('animation ready');
    expect(await page.locator('#anim-clip option').allTextContents()).toEqual(LIBRARY_CLIPS);
    // The animated FBX and the six library clips, each listed once its download is complete.
    await poll(() => page.locator('#anim-file option').count(), 30_000).toBe(7);
    // The same animated files are offered for offline review in #/viewer's list of downloaded models.
    const { models } = await h.call('cache.models', {});
    const mine = (models as { sessionId: string; kind: string; format: string; jobId: string | null }[]).filter(
      (m) => m.sessionId === code,
    );
    expect(mine.map((m) => m.kind).sort()).toEqual(
      ['animation', ...(await page.locator('#anim-file option').evaluateAll((os: any[]) => os.map((o) => o.value)))]
        .filter((k, i, all) => all.indexOf(k) === i)
        .sort(),
    );
    // FBX, as the service delivers them (the engine's default): the format main read from their bytes.
    expect(mine.every((m) => m.format === 'fbx' && m.jobId === job.id)).toBe(true);
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 20_000).toBe('idle');
    const camera = await canvas.getAttribute('data-camera');
    await page.selectOption('#anim-clip', '1');
    await page.click('.anim-play');
    const a = await canvasGrey('.animation-preview .viewer-canvas');
    await poll(async () => differing(a, await canvasGrey('.animation-preview .viewer-canvas')) > 5, 15_000).toBe(true);
    await page.click('.anim-play');
    const walk = (await page.locator('#anim-file option').allTextContents()).indexOf('Library: Jump');
    await page.selectOption('#anim-file', { index: walk });
    await poll(async () => await page.locator('.animation-preview .viewer').getAttribute('data-name'), 20_000).toMatch(
      /^library:/,
    );
    await poll(async () => await page.locator('.animation-preview .viewer').getAttribute('data-state'), 20_000).toBe(
      'ready',
    );
    expect(await page.locator('#anim-clip option').allTextContents()).toEqual(['Jump']);
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 20_000).toBe('idle');
    expect(await canvas.getAttribute('data-camera')).toBe(camera);

    // Hovering a joint highlights it (and its bones in the skeleton).
    await page.check('.anim-skeleton');
    await overlay.locator('g[data-joint="L_Knee"] .joint-hit').hover();
    await poll(async () => overlay.locator('g.joint.hot').getAttribute('data-joint')).toBe('L_Knee');
    // (Focus too, as from the keyboard: the screenshot scrolls the page, which would end the hover.)
    await page.mouse.move(0, 0);
    await poll(async () => overlay.locator('g.joint.hot').count()).toBe(0);
    await overlay.locator('g[data-joint="L_Knee"]').focus();
    await poll(async () => overlay.locator('g.joint.hot').getAttribute('data-joint')).toBe('L_Knee');
    await poll(async () => (await canvas.getAttribute('data-rendering')) ?? '', 10_000).toBe('idle');
    await h.screenshot('anim-job-overlay', page.locator('.animation-preview'));
  });

  it('made no request beyond this machine', () => {
    expect(h.offHost()).toEqual([]);
    expect(h.pageErrors).toEqual([]);
  });
});
