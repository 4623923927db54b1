// e2e: image to 3D through the UI (one step, and the older step-by-step flow with a spin choice).
import { describe, expect, it } from 'vitest';
import { choosePicture, createStepByStepSession } from './create-page.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '');

describe('image to 3D', () => {
  it('shows the library when started', async () => {
    const { page } = h;
    await poll(textOf(page.locator('h1'))).toBe('Library');
    await poll(() => page.locator('.skip-link').getAttribute('href')).toBe('#main');
    await h.screenshot('01-library-empty');
  });

  it('validates inline, creates from a picked image, and the job ends done with its files cached', async () => {
    const { page } = h;
    await page.click('nav[aria-label="Main"] >> text=Create');
    await page.waitForSelector('#i3d-image-file');
    // Connected to the local engine, the form says what it makes.
    await poll(textOf(page.locator('[data-local-engine-line]'))).toBe(
      "The local engine makes a geometric stand-in from your picture/prompt, not the service's AI.",
    );
    // And where the service's results come from.
    expect(await textOf(page.locator('[data-real-results]'))()).toBe(
      "For the service's results, paste an API key of CSM (Common Sense Machines) in Settings (generations cost credits).",
    );
    expect(await page.locator('[data-real-results] a').getAttribute('href')).toBe('#/settings');
    // A wrong value is named next to its field before anything is sent.
    await page.fill('.vec3 input >> nth=0', '0');
    await page.click('button:has-text("Create 3D model")');
    await h.screenshot('02-create-image-to-3d-invalid');
    await poll(textOf(page.locator('#i3d-image-errors'))).toContain('is required');
    await poll(textOf(page.locator('#i3d-bbox-errors'))).toContain('value 1: must be a size in metres above 0');
    await h.screenshot('02-create-image-to-3d-invalid');
    await page.fill('.vec3 input >> nth=0', '-1');
    await choosePicture(h, '#i3d-image-file', 'chair.png');
    await page.selectOption('#i3d-texture', 'pbr');
    await page.click('button:has-text("Create 3D model")');
    await page.locator('.created').first().waitFor({ state: 'visible', timeout: 120_000 });
    await poll(() => page.locator('#i3d-bbox-errors').count()).toBe(0);
    await poll(textOf(page.locator('.created .badge')), 240_000).toBe('Done');
    await h.screenshot('03-create-image-to-3d-done');

    await page.click('nav[aria-label="Main"] >> text=Library');
    const row = page.locator('.job-row', { hasText: 'chair.png' });
    await poll(textOf(row.locator('.badge'))).toBe('Done');
    await poll(textOf(row.locator('.percent'))).toBe('100%');
    await poll(textOf(row.locator('[data-local-engine-badge]'))).toBe('Local engine — procedural stand-in');
    await row.locator('.cached').first().waitFor({ state: 'visible', timeout: 240_000 });
    const session = (await row.locator('.job-meta code').textContent())!;
    expect(session).toMatch(/^SESSION_/);
    const { outputs } = await h.call('cache.outputs', { sessionId: session });
    expect(outputs.some((o: { kind: string; state: string }) => o.kind.includes('glb') && o.state === 'complete')).toBe(
      true,
    );
    await h.screenshot('04-library-done');

    await row.locator('a.job-title').click();
    await page.locator('table.outputs').first().waitFor({ state: 'visible' });
    await poll(textOf(page.locator('.created-status [data-local-engine-badge]'))).toBe(
      'Local engine — procedural stand-in',
    );
    await poll(textOf(page.locator('table.outputs tbody tr').first())).toContain('complete');
    await h.screenshot('05-job-page');
  });

  it('runs the older step-by-step flow with a chosen spin, a preview and a refine', async () => {
    const { page } = h;
    await createStepByStepSession(h, 'robot.png');
    const spins = page.locator('fieldset.spins label.spin');
    await poll(() => spins.count(), 240_000).toBe(4);
    await spins.nth(2).click();
    await poll(async () => (await spins.nth(2).getAttribute('class')) ?? '').toMatch(/chosen/);
    await page.selectOption('#prev-version', '1.2');
    // The pivot is checked inline against [-0.5, 0.5].
    await page.fill('.step:nth-child(2) .vec3 input >> nth=1', '-0.8');
    await page.click('button:has-text("Make preview")');
    await poll(textOf(page.locator('#prev-pivot-errors'))).toContain('value 2: must be between -0.5 and 0.5');
    await page.fill('.step:nth-child(2) .vec3 input >> nth=1', '-0.5');
    await poll(() => page.locator('#prev-pivot-errors').count()).toBe(0);
    await page.click('button:has-text("Make preview")');
    const preview = page.locator('.step:nth-child(2) .created');
    await poll(textOf(preview.locator('.badge')), 240_000).toBe('Done');
    await h.screenshot('06-older-flow-spins');
    await page.click('button:has-text("Refine mesh")');
    const refine = page.locator('.step:nth-child(3) .created');
    await poll(textOf(refine.locator('.badge')), 240_000).toBe('Done');
    await h.screenshot('07-older-flow-refined');
    const code = (await page.locator('.steps h3 code').textContent())!;
    const { jobs } = await h.call('jobs.list', { search: code, limit: 10 });
    const steps = jobs.map((j: { step: string }) => j.step).sort();
    expect(steps).toEqual(expect.arrayContaining(['preview', 'refine', 'spin']));
    expect(h.pageErrors.filter((e) => !e.includes('favicon'))).toEqual([]);
  });

  it('renders every create form with its defaults, keyboard first', async () => {
    const { page } = h;
    for (const [tab, heading] of [
      ['text-to-image', 'Text to image'],
      ['animation', 'Animate a mesh: upload'],
      ['retopology', 'Retopology'],
    ] as const) {
      await h.go(`#/create/${tab}`);
      await poll(textOf(page.locator('.create-form h2').first())).toBe(heading);
      await h.screenshot(`13-create-${tab}`);
    }
    // Retopology: defaults shown, a bad mesh reference named next to its field.
    expect(await page.locator('#retopo-model').inputValue()).toBe('swift');
    expect(await page.locator('#retopo-quads').isChecked()).toBe(true);
    await page.check('input[name="retopo-source"] >> nth=2'); // "A URL or asset id" (the library is the default)
    await page.fill('#retopo-mesh', 'model.glb');
    await poll(textOf(page.locator('#retopo-mesh-errors'))).toContain('ASSET_');
    // The skip link is the first stop of the keyboard and moves focus to the content.
    await h.go('#/library');
    await page.reload();
    await page.waitForSelector('#app-root[data-ready="true"]');
    await page.keyboard.press('Tab');
    await poll(() =>
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { className: string } } }).document.activeElement
            .className,
      ),
    ).toBe('skip-link');
    await page.keyboard.press('Enter');
    await poll(() =>
      page.evaluate(
        () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
      ),
    ).toBe('main');
  });
});
