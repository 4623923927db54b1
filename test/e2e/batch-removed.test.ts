// e2e: a job of a batch deleted from the library is neither completed nor failed: the queue counts it as
// removed, at once when it is deleted in the Library, and again after a reload, when the states of the
// kept batches' jobs are read back in one `batch.jobs` call (not one call per job).
import { describe, expect, it } from 'vitest';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { realPicture, reloadedBatchCounts, sendBatch } from './drop.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '');

describe('a batch with a job deleted from the library', () => {
  it('counts that job as removed, not failed, in the queue and after a reload, read in one call', async () => {
    const { page } = h;
    const batch = await sendBatch(page, [realPicture('chair.png', 'image/png'), realPicture('fox.jpg', 'image/jpeg')]);
    await poll(() => batch.getAttribute('data-stage')).toBe('finished');
    expect(await textOf(batch.locator('.batch-counts'))()).toBe(
      '2 of 2 files submitted · finished · 2 jobs (2 completed)',
    );
    const jobs = (await h.call('jobs.list', {})).jobs as { id: string; label: string }[];
    const fox = jobs.find((j) => j.label === 'fox.jpg')!;

    // Deleted in the Library: the queue says so at once.
    await h.go('#/library');
    await page.locator(`.job-row[data-job-id="${fox.id}"] input.select`).check();
    await page.click('.selection-bar button:has-text("Delete…")');
    await page.locator('.selection-bar [role="alertdialog"] button:has-text("Delete 1 entry")').click();
    await poll(() => page.locator(`.job-row[data-job-id="${fox.id}"]`).count()).toBe(0);
    await h.go('#/queue');
    await poll(textOf(page.locator('.batch').first().locator('.batch-counts'))).toBe(
      '2 of 2 files submitted · finished · 2 jobs (1 completed, 1 removed)',
    );

    // A reload: the kept batch's job states are read in one call, the deleted job counted as removed.
    const from = h.requests.length;
    expect(await reloadedBatchCounts(h)).toBe('2 of 2 files submitted · finished · 2 jobs (1 completed, 1 removed)');
    const calls = h.requestedPaths(from).filter((p) => p.startsWith(WEB_PROTOCOL.callPrefix));
    expect(calls.filter((p) => p === `${WEB_PROTOCOL.callPrefix}batch.jobs`)).toHaveLength(1);
    expect(calls.filter((p) => p === `${WEB_PROTOCOL.callPrefix}jobs.get`)).toEqual([]);
    expect(await textOf(page.locator('.notices'))()).not.toContain('failed');
    expect(h.pageErrors).toEqual([]);
  });
});
