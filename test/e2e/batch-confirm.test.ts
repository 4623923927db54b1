// e2e: a drop asks before it spends. 3 pictures, 1 rigged FBX and 1 file of no known kind are dropped: the
// batch dialog lists each with what it becomes (the text file refused, with why), the image-to-3D settings
// and the animation prompts, the total cost of what is sent and the balance after; its button says "Submit 4,
// 1 refused". Cancel sends nothing; Submit sends the 4 with the options chosen (the refused file is never
// uploaded); the queue's table and the toast give the same counts; the batch is still shown after a reload.
// Screenshots: docs/screenshots/batch-confirm.png (the dialog) and queue.png (the queue after it).
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { batchDialog, batchRows, dropFiles, type DroppedFile } from './drop.ts';
import { openApp, poll, textOf, useHarness } from './harness.ts';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';

const h = useHarness({}, '');
const DOCS = resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

const picture = (name: string, fixture: string, type: string): DroppedFile => ({
  name,
  data: readFileSync(realFixture('images', fixture)).toString('base64'),
  type,
});
const FILES: DroppedFile[] = [
  picture('chair.png', 'chair.png', 'image/png'),
  picture('fox.jpg', 'fox.jpg', 'image/jpeg'),
  picture('robot.png', 'robot.png', 'image/png'),
  {
    name: 'Male_Casual.fbx',
    data: readFileSync(realFixture('fbx', 'Male_Casual.fbx')).toString('base64'),
    type: 'application/octet-stream',
  },
  { name: 'notes.txt', data: Buffer.from('not a model').toString('base64'), type: 'text/plain' },
];

describe('confirm before a drop is submitted', () => {
  it('Cancel leaves nothing submitted', async () => {
    const { page } = h;
    await dropFiles(page, FILES);
    const dialog = await batchDialog(page, 5);
    await dialog.locator('button:has-text("Cancel")').click();
    await poll(() => dialog.count()).toBe(0);
    expect((await h.call('jobs.list', {})).total).toBe(0);
    expect((await h.call('batch.list', {})).batches).toEqual([]);
  });

  it('shows files offered by path (the desktop app’s Add Files…) in the same dialog', async () => {
    const { page } = h;
    await h.host.bridge.offerFiles([realFixture('images', 'chair.png'), realFixture('fbx', 'Male_Casual.fbx')]);
    const dialog = await batchDialog(page, 2);
    await poll(textOf(dialog.locator('.cost-text'))).toContain('Costs 15 credits');
    await dialog.locator('button:has-text("Cancel")').click();
    await poll(() => dialog.count()).toBe(0);
    expect((await h.call('jobs.list', {})).total).toBe(0);
  });

  it('lists the files with per-kind options and the total cost, then submits them with one confirm', async () => {
    const { page } = h;
    await poll(textOf(page.locator('.status-line .credits'))).toBe('1000 credits');
    const uploadsBefore = h.requests.length;
    await dropFiles(page, FILES);
    const dialog = await batchDialog(page, 5);
    // Checked by main first (batch-quote.test.ts): each row says what it becomes once its check is back.
    await poll(() => batchRows(dialog)).toEqual([
      ['chair.png', 'image'],
      ['fox.jpg', 'image'],
      ['robot.png', 'image'],
      ['Male_Casual.fbx', 'mesh'],
      ['notes.txt', 'refused'],
    ]);
    // The file no inspection would take is refused with its reason, and not counted in what is submitted.
    expect(await textOf(dialog.locator('tr[data-file="notes.txt"]'))()).toContain(
      'Refused: not a picture (PNG, JPEG, WebP), an FBX or a zip, so it is not sent',
    );
    expect(await textOf(dialog.locator('h2'))()).toBe('Submit 4 of 5 dropped files?');
    // Per-kind options: image-to-3D settings for the pictures, animation prompts for the FBX.
    expect(await textOf(dialog.locator('fieldset[data-kind="image"] legend'))()).toBe(
      'Image to 3D settings (3 pictures)',
    );
    await dialog.locator('#batch-geometry').selectOption('turbo');
    await dialog.locator('#batch-texture').selectOption('pbr');
    await dialog.locator('#batch-prompts').fill('walk forward\nwave with the right hand');
    // The total: 3 image-to-3D creates at 10 and 1 upload at 5 (the local engine's prices), the balance after.
    const cost = textOf(dialog.locator('.cost-text'));
    await poll(cost).toContain('Costs 35 credits');
    expect(await cost()).toContain('(3 image-to-3D creates × 10 credits + 1 animation upload × 5 credits)');
    expect(await cost()).toContain('Balance 1000 credits → 965 credits after.');
    await dialog.locator('h2').click(); // no focus ring in the picture
    mkdirSync(DOCS, { recursive: true });
    await dialog.screenshot({ path: join(DOCS, 'batch-confirm.png') });
    await h.screenshot('batch-confirm-dialog', dialog);

    const submit = dialog.locator('button[type="submit"]');
    expect(await textOf(submit)()).toBe('Submit 4, 1 refused');
    await submit.click();
    await poll(() => dialog.count()).toBe(0);
    await poll(textOf(page.locator('h1'))).toBe('Queue');
    const batch = page.locator('.batch').first();
    // Finished once every job is (batch-status.test.ts: "submitted" before that).
    await poll(() => batch.getAttribute('data-stage')).toBe('finished');
    // The table and the toast count the same things: 4 files made 5 jobs (the FBX's upload and its prompts).
    const counts = await textOf(batch.locator('.batch-counts'))();
    expect(counts).toBe('4 of 5 files submitted, 1 with a problem · finished · 5 jobs (5 completed)');
    await poll(textOf(page.locator('.notices'))).toContain(
      'Batch finished: 4 of 5 files submitted, 1 with a problem — 5 jobs (5 completed)',
    );
    const column = (n: number) => batch.locator(`tbody tr td:nth-child(${n}) .badge`).allTextContents();
    expect(await column(2)).toEqual(['Submitted', 'Submitted', 'Submitted', 'Submitted', 'Not sent']);
    expect(await column(3)).toEqual(['Completed', 'Completed', 'Completed', 'Completed']); // each file's job
    expect(await textOf(batch.locator('tr[data-file="notes.txt"] .item-error'))()).toContain('Refused: not a picture');
    // Only the 4 files submitted were uploaded to the app, once each (for the dialog's check, then used by the batch).
    expect(h.requestedPaths(uploadsBefore).filter((p) => p === WEB_PROTOCOL.upload).length).toBe(4);
    await poll(() => batch.locator('a[aria-label="Animations of Male_Casual.fbx"]').count()).toBe(1);
    // The options went with the pictures: the library's jobs are 3 image-to-3D, 1 upload, 1 set of prompts.
    const jobs = (await h.call('jobs.list', {})).jobs as { kind: string; label: string }[];
    expect(jobs.map((j) => j.kind).sort()).toEqual([
      'animation_prompt',
      'animation_session',
      'image_to_3d',
      'image_to_3d',
      'image_to_3d',
    ]);
    // The balance after, in the header.
    await poll(textOf(page.locator('.status-line .credits'))).toBe('965 credits');
    await page.screenshot({ path: join(DOCS, 'queue.png'), fullPage: true }); // the README's "Dropped files"

    // A reload: the batch is still there, with the same counts.
    await openApp(h, '#/queue');
    const again = page.locator('.batch').first();
    await poll(() => again.locator('tbody tr').count()).toBe(5);
    await poll(textOf(again.locator('.batch-counts'))).toBe(counts);
    expect(await again.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r as any).dataset.file))).toEqual([
      'chair.png',
      'fox.jpg',
      'robot.png',
      'Male_Casual.fbx',
      'notes.txt',
    ]);

    // The character is one library entry (its upload and its prompts' job), named after its file, with the
    // prompts as detail (a step of the entry), not a second entry named after them.
    await h.go('#/library');
    await poll(textOf(page.locator('.count').first())).toBe('4 jobs');
    const titles = await page.locator('.job-row .job-title').allTextContents();
    expect(titles.sort()).toEqual(['Male_Casual.fbx', 'chair.png', 'fox.jpg', 'robot.png']);
    const character = page.locator('.job-row').filter({ has: page.locator('.job-title', { hasText: 'Male_Casual' }) });
    await poll(textOf(character.locator('.entry-steps'))).toContain(
      'Animations: walk forward, wave with the right hand',
    );
    expect(await textOf(character.locator('.job-meta'))()).toContain('2 steps');
    await character.screenshot({ path: join(DOCS, 'library-character.png') }); // the README's Library
    expect(h.pageErrors).toEqual([]);
  });
});
