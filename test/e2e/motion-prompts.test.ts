// e2e (#32 items 2 and 3): text prompts on the local engine are played as the closest motion and the page says
// so. A character is uploaded on Create › Animation, three prompts are sent: "zombie walk" is answered "played as:
// walk … the library has no motion for "zombie"", "dance salsa" a dance, "qwzx blorp" is refused with why; the job
// is titled by the prompts that play (never by the refused one). Settings › Account and app credits the CMU
// motion-capture database.
import { describe, expect, it } from 'vitest';
import { MOTION_DATA_CREDIT } from '../../shared/credits.ts';
import { realFixture } from '../fixtures.ts';
import { openApp, poll, textOf, useHarness } from './harness.ts';

const h = useHarness();
const WAIT = 120_000;

describe('text prompts played as the closest motion', () => {
  it('says what each prompt plays, refuses nonsense with why, and titles the job without it', async () => {
    const { page } = h;
    await openApp(h, '#/create/animation');
    await page.setInputFiles('#anim-file', realFixture('fbx', 'Male_Casual.fbx'));
    await page.click('button:has-text("Upload mesh")');
    await poll(textOf(page.locator('.create-form').first().locator('.created .badge')), WAIT).toBe('Done');
    await poll(() => page.locator('#prompts-session').inputValue()).toMatch(/^SESSION_/);
    await page.fill('#prompts-texts', 'zombie walk\ndance salsa\nqwzx blorp');
    await page.click('button:has-text("Animate (3 prompts)")');
    const results = page.locator('.prompt-results');
    await poll(textOf(results), WAIT).toContain('qwzx blorp');
    const items = await results.locator('li').allTextContents();
    expect(items[0]).toMatch(/zombie walk: Animation queued.*played as: walk .*no motion for "zombie"/);
    expect(items[1]).toMatch(/dance salsa: Animation queued.*played as: .*kind dance/);
    expect(items[2]).toMatch(/qwzx blorp: refused — Cannot animate "qwzx blorp": none of its words/);
    await results.scrollIntoViewIfNeeded();
    await h.screenshot('motion-prompts', page.locator('form:has(#prompts-texts)'));
    const { jobs } = await h.call('jobs.list', { search: 'zombie', limit: 10 });
    const prompts = (jobs as { kind: string; label: string }[]).find((j) => j.kind === 'animation_prompt')!;
    expect(prompts.label).toBe('Male_Casual.fbx: zombie walk, dance salsa');
  });

  it('credits the CMU motion-capture database in Settings › Account and app', async () => {
    await h.go('#/settings');
    const credit = h.page.locator('[data-testid="motion-credit"]');
    await poll(textOf(credit)).toContain(MOTION_DATA_CREDIT);
    await h.screenshot('motion-credit', h.page.locator('section[aria-labelledby="account-heading"]'));
  });
});
