// e2e: the older step-by-step flow (#17 item 7): the spin views show as soon as they are cached (no reload),
// the refine pivot starts from the preview's, a reload comes back to the session with its steps, and the
// preview step's page shows the preview mesh (not the refined one the session also holds).
import { describe, expect, it } from 'vitest';
import { createStepByStepSession } from './create-page.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '');

describe('the older step-by-step flow', () => {
  it('spins cached live, pivot carried to refine, the session back after a reload, the preview page shows the preview', async () => {
    const { page } = h;
    await createStepByStepSession(h, 'robot.png');
    // Each spin view is the cached picture, shown without a reload.
    const cachedSpins = page.locator('fieldset.spins label.spin img[src^="/cache/"]');
    await poll(() => cachedSpins.count(), 240_000).toBe(4);
    expect(await page.locator('.spin-placeholder').count()).toBe(0);
    const code = (await page.locator('.steps h3 code').textContent())!;
    expect(code).toMatch(/^SESSION_/);

    await page.locator('fieldset.spins label.spin').nth(1).click();
    await page.fill('.step:nth-child(2) .vec3 input >> nth=1', '-0.5');
    await page.click('button:has-text("Make preview")');
    await poll(textOf(page.locator('.step:nth-child(2) .created .badge')), 240_000).toBe('Done');
    const refinePivot = () =>
      page
        .locator('.step:nth-child(3) .vec3 input')
        .evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value));
    await poll(refinePivot).toEqual(['0', '-0.5', '0']);
    await h.screenshot('older-flow-before-reload');

    // A reload comes back to the same session, its spins and its preview done.
    await page.reload();
    await page.waitForSelector('#app-root[data-ready="true"]', { timeout: 120_000 });
    await poll(textOf(page.locator('.steps h3 code'))).toBe(code);
    await poll(() => cachedSpins.count()).toBe(4);
    await poll(textOf(page.locator('.step:nth-child(2) .created .badge'))).toBe('Done');
    await poll(refinePivot).toEqual(['0', '-0.5', '0']);
    await page.click('button:has-text("Refine mesh")');
    await poll(textOf(page.locator('.step:nth-child(3) .created .badge')), 240_000).toBe('Done');

    // The preview step's page shows the preview mesh, the refine step's the refined one.
    const { jobs } = await h.call('jobs.list', { search: code, limit: 10 });
    const byStep = (step: string) => (jobs as { id: string; step: string }[]).find((j) => j.step === step)!;
    // The model the page's viewer is given (its output kind).
    const viewerLabel = () => page.locator('[data-model]').getAttribute('data-model', { timeout: 240_000 });
    await h.go(`#/job/${encodeURIComponent(byStep('refine').id)}`);
    await poll(async () => (await viewerLabel()) ?? '', 240_000).toMatch(/^(polished_)?glb$/);
    await h.go(`#/job/${encodeURIComponent(byStep('preview').id)}`);
    await poll(async () => (await viewerLabel()) ?? '').toBe('preview_glb');
    await h.screenshot('older-flow-preview-page');
    expect(h.pageErrors.filter((e) => !e.includes('favicon'))).toEqual([]);
  });
});
