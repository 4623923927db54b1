// e2e: a batch of 10 dropped files (one bad) and an animation upload of a real FBX with text prompts.
// The drop is a real `drop` event on the page (drop.ts), confirmed in the batch dialog.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { dropFiles } from './drop.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '');

describe('drop and animation', () => {
  it('turns 10 dropped files into a batch and reports the one bad file', async () => {
    const { page } = h;
    const images = ['chair.png', 'fox.jpg', 'robot.png'].map((name) => ({
      name,
      data: readFileSync(realFixture('images', name)).toString('base64'),
    }));
    const files = Array.from({ length: 9 }, (_, i) => {
      const image = images[i % 3]!;
      return {
        name: `${i + 1}-${image.name}`,
        data: image.data,
        type: image.name.endsWith('.jpg') ? 'image/jpeg' : 'image/png',
      };
    });
    files.splice(4, 0, {
      name: 'broken.png',
      data: Buffer.from('this is not an image at all').toString('base64'),
      type: 'image/png',
    });
    expect(files).toHaveLength(10);
    await dropFiles(page, files);
    // The drop asks for a confirm first (batch-confirm.test.ts checks the dialog itself), which checks each file
    // before its quote: the bad one is refused there (batch-quote.test.ts); then the queue lists the batch file by file.
    await page.click('.batch-dialog button:has-text("Submit 9, 1 refused")');
    await poll(textOf(page.locator('h1'))).toBe('Queue');
    const batch = page.locator('.batch').first();
    await poll(() => batch.locator('tbody tr').count()).toBe(10);
    await poll(textOf(batch.locator('.batch-head')), 120_000).toContain('finished');
    await h.screenshot('08-queue-batch');
    const bad = batch.locator('tr[data-file="broken.png"]');
    await poll(textOf(bad.locator('.badge'))).toBe('Not sent');
    expect(await textOf(bad.locator('.item-error'))()).toContain('broken.png is not a PNG, JPEG or WebP image');
    const states = await batch.locator('tbody tr .badge').allTextContents();
    expect(states.filter((s) => s === 'Submitted')).toHaveLength(9);
    expect(await batch.locator('a:has-text("Open job")').count()).toBe(9);
    // The submitted images are jobs in the library.
    await page.click('nav[aria-label="Main"] >> text=Library');
    await poll(textOf(page.locator('.count').first()), 20_000).toContain('9 jobs');
  });

  it('uploads a real FBX for animation and animates it from text prompts', async () => {
    const { page } = h;
    await h.go('#/create/animation');
    await page.setInputFiles('#anim-file', realFixture('fbx', 'Male_Casual.fbx'));
    await poll(textOf(page.locator('.create-form').first().locator('.hint'))).toContain('Male_Casual.fbx');
    // Both legs show progress: browser → app, then app → service (seen by an observer: they can be brief).
    await page.evaluate(() => {
      const g = globalThis as any;
      g.__legs = new Set<string>();
      new g.MutationObserver(() => {
        for (const el of g.document.querySelectorAll('.upload-progress')) g.__legs.add(el.dataset.leg ?? 'browser');
      }).observe(g.document.body, { childList: true, subtree: true });
    });
    await page.click('button:has-text("Upload mesh")');
    const upload = page.locator('.create-form').first().locator('.created');
    await poll(textOf(upload.locator('.badge')), 60_000).toBe('Done');
    expect(await page.evaluate(() => [...(globalThis as any).__legs].sort())).toEqual(['browser', 'service']);
    await poll(() => page.locator('#prompts-session').inputValue()).toMatch(/^SESSION_/);
    // One prompt the service refuses (too long): its own error is shown, the others go on.
    await page.fill('#prompts-texts', `walk forward\n\n  wave with the right hand  \n${'dance '.repeat(60)}`);
    await poll(textOf(page.locator('button:has-text("Animate")'))).toContain('3 prompts');
    await page.click('button:has-text("Animate")');
    const results = page.locator('.prompt-results li');
    await poll(() => results.count(), 15_000).toBe(3);
    await poll(textOf(page.locator('.prompt-results .prompt-error'))).toContain('too long');
    expect(await page.locator('.prompt-results .prompt-ok').count()).toBe(2);
    const prompts = page.locator('.create-form').nth(1).locator('.created');
    await poll(textOf(prompts.locator('.badge')), 60_000).toBe('Done');
    await h.screenshot('09-animation');
    expect(h.pageErrors).toEqual([]);
  });
});
