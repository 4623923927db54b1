// e2e: a job's own buttons on its page (renderer/src/screens/job-actions.tsx): a running job offers Cancel, a
// cancelled one Retry, which sends it again as a new job and says so. The engine is slow (image to 3D takes
// 60 s at speed 1), so the job is still running when Cancel is clicked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({ engineSpeed: 1 }, '');

describe('job actions', () => {
  it('cancels a running job, then retries it as a new job', async () => {
    const { page } = h;
    const image = `data:image/png;base64,${readFileSync(realFixture('images', 'chair.png')).toString('base64')}`;
    const { job } = await h.call('create', { endpoint: 'createImageTo3d', body: { image_url: image }, label: 'chair' });
    await h.go(`#/job/${job.id}`);
    const actions = page.locator('main .actions').first();
    await poll(() => actions.locator('button').allTextContents()).toEqual(['Cancel']);
    await actions.locator('button[aria-label="Cancel chair"]').click();
    await poll(async () => (await h.call('jobs.get', { id: job.id })).state).toBe('cancelled');
    await poll(() => actions.locator('button').allTextContents()).toEqual(['Retry']);
    await actions.locator('button[aria-label="Retry chair"]').click();
    await poll(textOf(page.locator('.notices'))).toContain('Sent again as a new job: chair.');
    const { jobs } = await h.call('jobs.list', {});
    expect(jobs.map((j: { id: string }) => j.id)).toContain(job.id);
    expect(jobs).toHaveLength(2);
  });
});
