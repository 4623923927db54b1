// e2e: every create form shows what a submit costs and the balance after; with an engine whose account
// starts with 5 credits, image to 3D (10) is refused before sending: the submit is disabled with the
// reason, in the form and in the batch dialog, while a create the balance pays for stays possible.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { dropFiles } from './drop.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({ engineCredits: 5 }, '');

describe('cost before spending', () => {
  it('shows a cost line on every create form', async () => {
    const { page } = h;
    await poll(textOf(page.locator('.status-line .credits'))).toBe('5 credits');
    const expected: [string, string[]][] = [
      ['image-to-3d', ['Costs 10 credits']],
      ['step-by-step', ['Costs 10 credits']],
      ['text-to-image', ['Costs 1 credit', 'Costs 5 credits']],
      ['animation', ['Costs 5 credits', 'Free (the local engine’s price list). Balance 5 credits.']],
      ['retopology', ['Costs 10 credits']],
    ];
    for (const [form, texts] of expected) {
      await h.go(`#/create/${form}`);
      const lines = page.locator('[data-testid="cost-line"] .cost-text');
      await poll(() => lines.count()).toBe(texts.length);
      const all = await lines.allTextContents();
      for (const [i, t] of texts.entries()) expect(all[i], form).toContain(t);
    }
  });

  it('disables a submit the balance cannot pay, with the reason; one it can pay stays enabled', async () => {
    const { page } = h;
    await h.go('#/create/image-to-3d');
    const submit = page.locator('button:has-text("Create 3D model")');
    await poll(() => submit.isDisabled()).toBe(true);
    expect(await textOf(page.locator('.cost-refusal'))()).toBe(
      'Not enough credits: this costs 10 credits and the balance is 5 credits. Add credits at the service, or send fewer.',
    );
    expect(await submit.getAttribute('aria-describedby')).toBeTruthy();
    await h.go('#/create/text-to-image');
    await poll(textOf(page.locator('.cost-text').first())).toBe(
      'Costs 1 credit (the local engine’s price list). Balance 5 credits → 4 credits after.',
    );
    expect(await page.locator('button:has-text("Create image")').isDisabled()).toBe(false);
    await h.screenshot('cost-short');
  });

  it('the batch dialog refuses a drop the balance cannot pay', async () => {
    const { page } = h;
    await dropFiles(page, [
      {
        name: 'chair.png',
        data: readFileSync(realFixture('images', 'chair.png')).toString('base64'),
        type: 'image/png',
      },
    ]);
    const dialog = page.locator('.batch-dialog');
    await poll(textOf(dialog.locator('.cost-refusal'))).toContain(
      'Not enough credits: this costs 10 credits and the balance is 5 credits',
    );
    expect(await dialog.locator('button:has-text("Submit 1 file")').isDisabled()).toBe(true);
    await dialog.locator('button:has-text("Cancel")').click();
    expect((await h.call('jobs.list', {})).total).toBe(0);
    expect(h.pageErrors).toEqual([]);
  });
});
