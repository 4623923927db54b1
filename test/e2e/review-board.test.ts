// e2e (#31): the review board and the engine-fit check, in Chromium through the local web host.
//  - Three image-to-3D models on the board, each with its triangles and verdict against the profile; the keyboard
//    approves two (A) and rejects one (R), moving with the arrows; the decisions are kept by main; "Export approved"
//    writes the two approved models into the project folder with the profile, and the summary says so.
//  - The job page's export panel with a profile shows the check's findings with their fixes; the 1 m model asks
//    how tall it is, and the height given turns into "Set height 0.12 m".
//  - "Run again" shows the job's request with the endpoint's defaults, and sends the edited one as a new job.
//  - Settings › Target profiles: a default profile and an edited budget the check then uses; a bad edit refused.
//  - Screenshots: docs/screenshots/review-board.png and docs/screenshots/fit-check.png (the README's).
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { poll, textOf } from './harness.ts';
import { useViewerHarness } from './viewer-page.ts';

const DOCS = resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const h = useViewerHarness('');
let root: string;
const jobs: { id: string; remoteId: string; label: string }[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'asset-studio-review-e2e-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const dataUri = (name: string, type: string) =>
  `data:${type};base64,${readFileSync(realFixture('images', name)).toString('base64')}`;

describe('review board and engine-fit check', () => {
  it('has three finished models with their GLBs cached', async () => {
    for (const [name, type] of [
      ['chair.png', 'image/png'],
      ['robot.png', 'image/png'],
      ['fox.jpg', 'image/jpeg'],
    ] as const) {
      const created = await h.call('create', {
        endpoint: 'createImageTo3d',
        body: { image_url: dataUri(name, type) },
        label: name,
      });
      jobs.push({ id: created.job.id, remoteId: created.job.remoteId, label: name });
    }
    for (const job of jobs)
      await poll(async () => {
        const { outputs } = await h.call('cache.outputs', { sessionId: job.remoteId });
        return (outputs as { kind: string; state: string }[]).some((o) => o.kind === 'glb' && o.state === 'complete');
      }).toBe(true);
  });

  it('approves two of three with the keyboard and exports them with the profile (screenshot of the board)', async () => {
    const { page } = h;
    await h.go('#/review');
    await page.selectOption('#review-profile', 'unity-mobile');
    const card = (id: string) => page.locator(`.review-card[data-job="${id}"]`);
    for (const job of jobs) await poll(() => card(job.id).getAttribute('data-verdict')).not.toBe('none');
    // The engine's ~20,000 triangles are over unity-mobile's 10,000: each says so.
    for (const job of jobs) {
      expect(await card(job.id).getAttribute('data-verdict')).toBe('fails');
      expect(Number((await card(job.id).locator('[data-stat="triangles"]').textContent())!.replace(/,/g, ''))).toBe(
        (await h.call('check.run', { jobId: job.id, profile: 'unity-mobile' })).model.triangles,
      );
    }
    // The board lists the newest first: fox, robot, chair. A on the first, → then R, → then A.
    const order = await page
      .locator('.review-card')
      .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.job));
    expect(order.slice(0, 3).sort()).toEqual(jobs.map((j) => j.id).sort());
    await card(order[0]!).locator('.review-name').focus();
    await page.keyboard.press('a');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('r');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('a');
    await poll(() => card(order[2]!).getAttribute('data-decision')).toBe('approved');
    expect(await card(order[0]!).getAttribute('data-decision')).toBe('approved');
    expect(await card(order[1]!).getAttribute('data-decision')).toBe('rejected');
    // Kept by main: read again through the bridge.
    const { entries } = await h.call('review.list', { jobIds: order.slice(0, 3) });
    expect((entries as { decision: string }[]).map((e) => e.decision)).toEqual(['approved', 'rejected', 'approved']);

    await page.locator('.review-grid').scrollIntoViewIfNeeded();
    copyFileSync(await h.screenshot('review-board'), join(DOCS, 'review-board.png'));

    const project = join(root, 'game');
    await page.fill('#review-export-dir', project);
    await page.click('.review-export button[type="submit"]');
    await poll(() => page.locator('.review-summary li[data-exported="written"]').count()).toBe(2);
    expect(await textOf(page.locator('.review-summary p'))()).toBe('Exported 2 of 2.');
    const written = await page.locator('.review-summary li code').allTextContents();
    for (const dir of written) {
      expect(dir.startsWith(project)).toBe(true);
      expect(readdirSync(dir).some((f) => f.endsWith('.glb'))).toBe(true);
    }
    const approvedLabels = [order[0], order[2]].map((id) => jobs.find((j) => j.id === id)!.label.replace(/\..*$/, ''));
    const rejected = jobs.find((j) => j.id === order[1])!.label.replace(/\..*$/, '');
    expect(readdirSync(project).sort()).toEqual(approvedLabels.sort());
    expect(existsSync(join(project, rejected))).toBe(false);
  });

  it("shows the check's findings with their fixes in the export panel, and asks how tall it is (screenshot)", async () => {
    const { page } = h;
    const chair = jobs[0]!;
    await h.go(`#/job/${chair.id}`);
    await page.waitForSelector('#export-profile');
    await page.selectOption('#export-profile', 'unity-mobile');
    const report = page.locator('.export-form .fit-report[data-verdict]');
    await report.waitFor({ state: 'visible', timeout: 120_000 });
    expect(await report.getAttribute('data-verdict')).toBe('fails');
    const finding = (code: string) => report.locator(`[data-code="${code}"]`);
    expect(await textOf(finding('triangles-over-budget'))()).toContain(
      'The export applies: Reduce to 10,000 triangles',
    );
    expect(await textOf(finding('size-unknown'))()).toContain('how tall is it?');
    await finding('size-unknown').locator('input').fill('0.12');
    await finding('size-unknown').locator('button').click();
    await poll(textOf(finding('size-differs'))).toContain('Set height 0.12 m');
    await report.scrollIntoViewIfNeeded();
    copyFileSync(
      await h.screenshot('fit-check', page.locator('.export-form .field:has(.fit-report)')),
      join(DOCS, 'fit-check.png'),
    );
    // The job page's own report says the same against the profile chosen there.
    await page.selectOption('#job-fit-profile', 'unity-mobile');
    await poll(() =>
      page.locator('section[aria-labelledby="job-fit-heading"] .fit-report').getAttribute('data-verdict'),
    ).toBe('fails');
  });

  it("shows the budget verdict beside the viewer's stats and a texel-density checker at the profile's px/m", async () => {
    const { page } = h;
    await h.go(`#/job/${jobs[0]!.id}`);
    // No default profile saved: the viewer judges against unity-desktop (50,000 triangles, 512 px/m).
    const budget = page.locator('[data-stat="budget"]');
    await budget.waitFor({ state: 'visible', timeout: 120_000 });
    expect(await budget.getAttribute('data-verdict')).toBe('within');
    expect(await textOf(budget)()).toMatch(/^Within \([\d,]+ of 50,000 triangles for Unity — desktop\)$/);
    await page.click('[data-mode="texel"]');
    // The engine's model has no texture: a 1024 px one is assumed, 51.2 px a 10 cm square: 20 squares across UV.
    const hint = page.locator('[data-texel-squares]');
    expect(await hint.getAttribute('data-texel-squares')).toBe('20.00');
    expect(await textOf(hint)()).toContain('Texel density against Unity — desktop (512 px/m)');
    await h.screenshot('texel-checker', page.locator('.viewer'));
  });

  it('runs a model again with other settings: its request prefilled with the defaults, edited, sent as a new job', async () => {
    const { page } = h;
    const chair = jobs[0]!;
    await h.go('#/review');
    const card = page.locator(`.review-card[data-job="${chair.id}"]`);
    await card.waitFor({ state: 'visible', timeout: 120_000 });
    await card.locator('button', { hasText: 'Run again' }).click();
    await page.waitForSelector('#again-topology');
    expect(await page.inputValue('#again-topology')).toBe('tris'); // the endpoint's default, shown
    await page.selectOption('#again-topology', 'quads');
    await page.click('.review-again button[type="submit"]');
    const link = page.locator('.review-again [role="status"] a');
    await link.waitFor({ state: 'visible', timeout: 120_000 });
    const newId = decodeURIComponent((await link.getAttribute('href'))!.replace('#/job/', ''));
    expect(newId).not.toBe(chair.id);
    const sent = await h.call('jobs.request', { id: newId });
    const before = await h.call('jobs.request', { id: chair.id });
    expect(sent.endpoint).toBe('createImageTo3d');
    expect(sent.body).toMatchObject({ topology: 'quads', image_url: before.body.image_url });
  });

  it('saves a default profile and an edited budget in Settings, which the check then uses; reset brings it back', async () => {
    const { page } = h;
    await h.go('#/settings');
    await page.waitForSelector('#profile-default');
    await page.selectOption('#profile-default', 'unity-mobile');
    await poll(textOf(page.locator('section[aria-labelledby="target-profiles-heading"] [role="status"]'))).toContain(
      'Default profile saved.',
    );
    await page.selectOption('#profile-editing', 'unity-mobile');
    await page.fill('#profile-budget', '30000');
    await page.fill('#profile-lods', '0.5, 0.25, 0.1');
    await page.click('.profile-edit button[type="submit"]');
    await poll(textOf(page.locator('.profile-edit [role="status"]'))).toBe('Unity — mobile saved.');
    await h.screenshot('target-profiles', page.locator('section[aria-labelledby="target-profiles-heading"]'));
    // No profile named: the saved default with its edit (the engine's ~20,000 triangles now fit).
    const report = await h.call('check.run', { jobId: jobs[0]!.id });
    expect(report.profile).toBe('unity-mobile');
    expect(report.findings.map((f: { code: string }) => f.code)).not.toContain('triangles-over-budget');
    expect(report.findings.find((f: { code: string }) => f.code === 'no-lods').fix.levels).toBe(3);
    // LOD ratios that grow are refused, naming the field.
    await page.fill('#profile-lods', '0.5, 0.6');
    await page.click('.profile-edit button[type="submit"]');
    await poll(textOf(page.locator('.profile-edit'))).toContain('LOD2 must keep fewer triangles than LOD1');
    await page.click('.profile-edit button:has-text("Reset to built-in")');
    await poll(textOf(page.locator('.profile-edit [role="status"]'))).toBe('Unity — mobile reset.');
    expect(await page.inputValue('#profile-budget')).toBe('10000');
  });
});
