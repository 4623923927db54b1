// e2e: a batch is "submitted" when its files are, "finished" only when its jobs are. Two pictures are
// dropped on a slow engine (its jobs take seconds): once both files are submitted the queue and the notice
// say "submitted" with the jobs queued or running, never "finished" while a job is not final, and each
// file's row shows its job queued or running with its progress (never a full bar that reads as done); when
// both jobs have completed they say "finished" with how many completed.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realPicture, reloadedBatchCounts, sendBatch } from './drop.ts';
import { poll, textOf, useHarness } from './harness.ts';

// Image to 3D takes 60 s at speed 1 (main/engine/progress.ts): 10 to 20 s here, so the jobs are still
// queued or running when their files have been submitted.
const h = useHarness({ engineSpeed: 4 }, '');
const DOCS = resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

describe('a batch’s status', () => {
  it('says submitted while its jobs run, finished when every job has its final state', async () => {
    const { page } = h;
    const batch = await sendBatch(page, [realPicture('chair.png', 'image/png'), realPicture('fox.jpg', 'image/jpeg')]);
    await poll(() => batch.getAttribute('data-stage')).not.toBe('submitting');
    // What the page says, then the jobs: a job not final now was not final when the page said it.
    const counts = await textOf(batch.locator('.batch-counts'))();
    const notices = await textOf(page.locator('.notices'))();
    // Each submitted file's row shows its job (queued, or running with its progress), not a full bar.
    const progressCells = await batch.locator('.batch-items tbody td:nth-child(3)').allTextContents();
    const stage = await batch.getAttribute('data-stage');
    const jobs = (await h.call('jobs.list', {})).jobs as { state: string; final: boolean }[];
    expect(jobs).toHaveLength(2);
    expect(jobs.some((j) => !j.final)).toBe(true); // the engine is slow enough for this test to mean something
    expect(stage).toBe('submitted');
    expect(progressCells).toHaveLength(2);
    for (const cell of progressCells) expect(cell).toMatch(/^(Queued at the service|Running(\d+%|…)|Completed)$/);
    expect(progressCells.some((c) => c !== 'Completed')).toBe(true);
    expect(counts).not.toContain('finished');
    expect(counts).toMatch(
      /^2 of 2 files submitted · 2 jobs \((\d queued|\d running|\d completed)(, \d (running|completed))*\)$/,
    );
    expect(notices).not.toContain('Batch finished');
    expect(notices).toMatch(/Batch submitted: 2 of 2 files submitted — 2 jobs \(/);
    await h.screenshot('batch-submitted');
    mkdirSync(DOCS, { recursive: true });
    await batch.screenshot({ path: join(DOCS, 'batch-submitted.png') }); // the README's "Dropped files"
    // A running job: its state and its progress, as the service reports it.
    const running = batch.locator('.batch-items .job-progress').first();
    await running.waitFor();
    expect(await textOf(running)()).toMatch(/^Running(\d+%|…)$/);
    await h.screenshot('batch-running', batch);

    await poll(() => batch.getAttribute('data-stage')).toBe('finished');
    expect(await batch.locator('.batch-items tbody td:nth-child(3)').allTextContents()).toEqual([
      'Completed',
      'Completed',
    ]);
    expect((await h.call('jobs.list', {})).jobs.every((j: { state: string }) => j.state === 'succeeded')).toBe(true);
    expect(await textOf(batch.locator('.batch-counts'))()).toBe(
      '2 of 2 files submitted · finished · 2 jobs (2 completed)',
    );
    await poll(textOf(page.locator('.notices'))).toContain(
      'Batch finished: 2 of 2 files submitted — 2 jobs (2 completed).',
    );
    await h.screenshot('batch-finished');

    // A reload: the batch is read back finished, and not announced again.
    expect(await reloadedBatchCounts(h)).toBe('2 of 2 files submitted · finished · 2 jobs (2 completed)');
    expect(await textOf(page.locator('.notices'))()).not.toContain('Batch finished');
    expect(h.pageErrors).toEqual([]);
  });
});
