// e2e (#33, from the walkthrough: a batch quoted 80 credits and spent 65): the batch dialog checks each dropped
// file as the batch will (main's inspection, batch.check) before it quotes, so a file named like a picture that
// is not one, or an FBX that is text, is refused there with why, and the cost counts only the files that will be
// sent: what the dialog quotes is what the account is charged. The refused files are never submitted.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { batchDialog, batchRows, dropFiles, realPicture, type DroppedFile } from './drop.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '#/library');

const text = (name: string, content: string): DroppedFile => ({
  name,
  data: Buffer.from(content).toString('base64'),
  type: 'application/octet-stream',
});
const FILES: DroppedFile[] = [
  realPicture('chair.png', 'image/png'),
  text('scan.png', 'a text file named like a picture'),
  realPicture('fox.jpg', 'image/jpeg'),
  text('broken.fbx', 'this is not an fbx'),
  {
    name: 'Male_Casual.fbx',
    data: readFileSync(realFixture('fbx', 'Male_Casual.fbx')).toString('base64'),
    type: 'application/octet-stream',
  },
];

describe('the batch dialog’s quote', () => {
  it('counts only the files that will be sent, says which are refused and why, and is what is spent', async () => {
    const { page } = h;
    await poll(textOf(page.locator('.status-line .credits'))).toBe('1000 credits');
    await dropFiles(page, FILES);
    const dialog = await batchDialog(page, 5);
    await poll(() => batchRows(dialog)).toEqual([
      ['chair.png', 'image'],
      ['scan.png', 'refused'],
      ['fox.jpg', 'image'],
      ['broken.fbx', 'refused'],
      ['Male_Casual.fbx', 'mesh'],
    ]);
    expect(await textOf(dialog.locator('tr[data-file="scan.png"] .item-error'))()).toMatch(
      /^Refused: scan\.png is not a PNG, JPEG or WebP image \(it starts like .*\)\. Save or convert it as PNG or JPEG and try again\.$/,
    );
    expect(await textOf(dialog.locator('tr[data-file="broken.fbx"] .item-error'))()).toMatch(
      /^Refused: broken\.fbx is not an FBX file/,
    );
    // 2 pictures at 10 and 1 upload at 5 (the local engine's prices): not 4 pictures' worth by their names.
    const cost = textOf(dialog.locator('.cost-text'));
    await poll(cost).toContain(
      'Costs 25 credits (2 image-to-3D creates × 10 credits + 1 animation upload × 5 credits)',
    );
    expect(await cost()).toContain('Balance 1000 credits → 975 credits after.');
    expect(await textOf(dialog.locator('h2'))()).toBe('Submit 3 of 5 dropped files?');
    expect(await textOf(dialog.locator('p.hint').first())()).toContain(
      '2 files are refused and never sent (see why below); the cost counts only the 3 that will be.',
    );
    await dialog.locator('h2').click();
    await h.screenshot('batch-quote-dialog', dialog);
    const submit = dialog.locator('button[type="submit"]');
    expect(await textOf(submit)()).toBe('Submit 3, 2 refused');
    await submit.click();
    await poll(textOf(page.locator('h1'))).toBe('Queue');
    const batch = page.locator('.batch').first();
    await poll(() => batch.getAttribute('data-stage')).toBe('finished');
    // The balance after is the one quoted.
    await poll(textOf(page.locator('.status-line .credits'))).toBe('975 credits');
    expect(await textOf(batch.locator('tr[data-file="scan.png"] .item-error'))()).toContain(
      'Refused: scan.png is not a PNG, JPEG or WebP image',
    );
    const jobs = (await h.call('jobs.list', {})).jobs as { kind: string }[];
    expect(jobs.map((j) => j.kind).sort()).toEqual(['animation_session', 'image_to_3d', 'image_to_3d']);
    await h.screenshot('batch-quote-queue');
  });
});
