// e2e: a folder dropped on the page in a browser (the web host) is read there, as the desktop app's main
// walks one: a real drop of a real folder (Chromium's own drag, drop.ts dropPaths) whose entries the page
// reads (webkitGetAsEntry, FileSystemDirectoryEntry, recursively). Its pictures and FBX, in subfolders too,
// are offered in the batch dialog beside a loose file dropped with it; hidden files and files of no known
// kind are left out (said in a notice); Submit makes one job per file. A folder of more files than the
// bound offers the first MAX_FOLDER_FILES, and says so.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_FOLDER_FILES } from '../../renderer/src/dropped-folders.ts';
import { realFixture } from '../fixtures.ts';
import { batchDialog, batchRows, dropPaths } from './drop.ts';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '');
const root = mkdtempSync(join(tmpdir(), 'asset-studio-drop-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a folder dropped in the browser', () => {
  it('offers the pictures and FBX it holds (subfolders too), leaves out hidden and unknown files, and submits them', async () => {
    const { page } = h;
    const renders = join(root, 'renders');
    mkdirSync(join(renders, 'characters'), { recursive: true });
    copyFileSync(realFixture('images', 'chair.png'), join(renders, 'chair.png'));
    copyFileSync(realFixture('images', 'fox.jpg'), join(renders, 'fox.jpg'));
    copyFileSync(realFixture('fbx', 'Male_Casual.fbx'), join(renders, 'characters', 'Male_Casual.fbx'));
    copyFileSync(realFixture('images', 'chair.png'), join(renders, '.hidden.png'));
    writeFileSync(join(renders, 'notes.txt'), 'not a model');
    copyFileSync(realFixture('images', 'robot.png'), join(root, 'robot.png'));

    await dropPaths(page, [join(root, 'robot.png'), renders]);
    const dialog = await batchDialog(page, 4);
    // The loose file, then the folder's in name order as main walks one: chair.png, characters/, fox.jpg.
    await poll(() => batchRows(dialog)).toEqual([
      ['robot.png', 'image'],
      ['chair.png', 'image'],
      ['Male_Casual.fbx', 'mesh'],
      ['fox.jpg', 'image'],
    ]);
    expect(await textOf(page.locator('.notices'))()).toContain(
      '2 files were left out of those folders: hidden, or not a picture, an FBX or a zip.',
    );
    expect(await textOf(page.locator('.notices'))()).not.toContain('cannot send a folder');
    await dialog.locator('button[type="submit"]').click();
    await poll(textOf(page.locator('h1'))).toBe('Queue');
    const batch = page.locator('.batch').first();
    await poll(() => batch.getAttribute('data-stage')).toBe('finished');
    expect(await textOf(batch.locator('.batch-counts'))()).toMatch(/^4 of 4 files submitted/);
    // The files' bytes arrived whole: each became its job, the FBX an upload of the character.
    const jobs = (await h.call('jobs.list', {})).jobs as { kind: string; label: string; state: string }[];
    expect(jobs.map((j) => `${j.kind} ${j.label} ${j.state}`).sort()).toEqual([
      'animation_session Male_Casual.fbx succeeded',
      'image_to_3d chair.png succeeded',
      'image_to_3d fox.jpg succeeded',
      'image_to_3d robot.png succeeded',
    ]);
    expect(h.pageErrors).toEqual([]);
  });

  it(`offers at most ${MAX_FOLDER_FILES} files of a folder, and says so`, async () => {
    const { page } = h;
    const many = join(root, 'many');
    mkdirSync(many);
    const total = MAX_FOLDER_FILES + 5;
    for (let i = 0; i < total; i++) writeFileSync(join(many, `${String(i).padStart(4, '0')}.png`), 'x');
    await h.go('#/library');
    await dropPaths(page, [many]);
    const dialog = await batchDialog(page, MAX_FOLDER_FILES);
    expect(await dialog.locator('tbody tr').last().getAttribute('data-file')).toBe(
      `${String(MAX_FOLDER_FILES - 1).padStart(4, '0')}.png`,
    );
    expect(await textOf(page.locator('.notices'))()).toContain(`only the first ${MAX_FOLDER_FILES} are offered`);
    await dialog.locator('button:has-text("Cancel")').click();
    await poll(() => dialog.count()).toBe(0);
  });
});
