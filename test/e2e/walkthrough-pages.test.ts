// e2e (#33, from the walkthrough): an empty library says what to do (no job yet: how to make one; filters that
// hide every job: which ones, and a button clearing them), a screen opened from the navigation starts at its top
// (the create pages opened 50 px down: focusing <main> scrolled it into view), and the retopology form's two
// "Model" fields have labels of their own.
import { describe, expect, it } from 'vitest';
import { poll, textOf, useHarness } from './harness.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: any;
declare const scrollY: number;

const h = useHarness({}, '#/library');
const EMPTY = '[data-testid="empty-library"]';

describe('an empty library', () => {
  it('with no job yet, says how to make one: a create form or files dropped on the window', async () => {
    const { page } = h;
    await poll(() => page.locator(EMPTY).getAttribute('data-why')).toBe('empty');
    const text = await textOf(page.locator(EMPTY))();
    expect(text).toContain('No jobs yet.');
    expect(text).toContain('drop pictures (PNG, JPEG, WebP), FBX files or zips');
    expect(await page.locator(`${EMPTY} a`).getAttribute('href')).toBe('#/create');
    await h.screenshot('library-empty');
  });

  it('with filters hiding every job, names them and clears them', async () => {
    const { page } = h;
    const made = await h.call('create', { endpoint: 'createTextToImage', body: { prompt: 'a red barrel' } });
    expect(made.job, JSON.stringify(made)).toBeTruthy();
    await poll(textOf(page.locator('.job-list .job-title'))).toBe('a red barrel');
    await page.selectOption('#filter-state', 'failed');
    await page.fill('#filter-search', 'barrel');
    await poll(textOf(page.locator(`${EMPTY} p`))).toBe(
      'The one job in the library does not match these filters: State: Failed or cancelled · Search: “barrel”.',
    );
    expect(await page.locator(`${EMPTY}`).getAttribute('data-why')).toBe('filtered');
    await h.screenshot('library-filtered-empty');
    await page.click(`${EMPTY} button:has-text("Clear the filters")`);
    await poll(textOf(page.locator('.job-list .job-title'))).toBe('a red barrel');
    expect(await page.locator('#filter-state').inputValue()).toBe('');
    expect(await page.locator('#filter-search').inputValue()).toBe('');
    expect(await page.locator(EMPTY).count()).toBe(0);
  });
});

describe('screens opened from the navigation', () => {
  it('open at their top: every create page, and the library after a scrolled page', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 1280, height: 480 });
    for (const form of ['image-to-3d', 'step-by-step', 'text-to-image', 'animation', 'retopology']) {
      await h.go('#/library');
      await page.waitForSelector('h1:has-text("Library")');
      await page.click(`nav[aria-label="Main"] a:has-text("Create")`);
      await h.go(`#/create/${form}`);
      await page.waitForSelector('form h2');
      // Taller than the window, so that a scroll would show.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(480);
      expect(await page.evaluate(() => scrollY), form).toBe(0);
    }
    await page.evaluate(() => document.documentElement.scrollTo(0, 400));
    await page.click(`nav[aria-label="Main"] a:has-text("Library")`);
    await page.waitForSelector('h1:has-text("Library")');
    expect(await page.evaluate(() => scrollY)).toBe(0);
    // Focus still moves to the screen, for keyboard and screen reader users.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('the retopology form', () => {
  it('labels its input model and its retopology model apart', async () => {
    const { page } = h;
    await h.go('#/create/retopology');
    await page.waitForSelector('#retopo-model');
    const labels = await page.evaluate(() =>
      [...document.querySelectorAll('form label, form legend')].map((l: any) => l.textContent.trim()),
    );
    expect(labels.filter((l: string) => l === 'Model')).toEqual([]);
    expect(new Set(labels).size, labels.join(' | ')).toBe(labels.length);
    expect(await page.getByLabel('Input model (a finished job)').getAttribute('id')).toBe('retopo-job');
    expect(await page.getByLabel('Retopology model').getAttribute('id')).toBe('retopo-model');
    await h.screenshot('retopology-form');
  });
});
