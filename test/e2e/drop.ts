// Dropping files on the page as a desktop drag does: a real `drop` event carrying a DataTransfer of File
// objects built in the page from the given bytes (the OS drag itself left out); and the batch dialog a drop opens.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { realFixture } from '../fixtures.ts';
import { poll, textOf, type Harness } from './harness.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: { querySelector(s: string): { dispatchEvent(e: unknown): boolean } | null };
declare const DataTransfer: new () => { items: { add(f: unknown): void } };
declare const DragEvent: new (type: string, init: object) => unknown;
declare const File: new (parts: unknown[], name: string, init: object) => unknown;

export interface DroppedFile {
  name: string;
  /** The bytes, base64. */
  data: string;
  type: string;
}

/** A picture of the real fixtures (fixtures/real/images) as a dropped file. */
export const realPicture = (name: string, type: string): DroppedFile => ({
  name,
  data: readFileSync(realFixture('images', name)).toString('base64'),
  type,
});

export async function dropFiles(page: Page, files: readonly DroppedFile[]): Promise<void> {
  await page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], f.name, { type: f.type }));
    }
    const target = document.querySelector('main')!;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, files);
}

/** Drops files and sends them as a batch (the batch dialog confirmed): the Queue, and its newest batch. */
export async function sendBatch(page: Page, files: readonly DroppedFile[]): Promise<Locator> {
  await dropFiles(page, files);
  await page.click('.batch-dialog button[type="submit"]');
  await poll(textOf(page.locator('h1'))).toBe('Queue');
  return page.locator('.batch').first();
}

/** Reloads the page and opens the Queue: the counts of its newest batch once read back finished. */
export async function reloadedBatchCounts(h: Harness): Promise<string> {
  await h.page.reload();
  await h.page.waitForSelector('#app-root[data-ready="true"]');
  await h.go('#/queue');
  const batch = h.page.locator('.batch').first();
  await poll(() => batch.getAttribute('data-stage')).toBe('finished');
  return textOf(batch.locator('.batch-counts'))();
}

/**
 * Drops files and folders of this machine on the page as the OS does: Chromium's own drag (DevTools
 * protocol Input.dispatchDragEvent with their paths), so the page's drop carries real entries, a folder a
 * FileSystemDirectoryEntry whose files it reads itself. Dropped at (x, y) of the viewport.
 */
export async function dropPaths(page: Page, paths: readonly string[], x = 640, y = 400): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const data = { items: [], files: [...paths], dragOperationsMask: 1 }; // 1: copy
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
      await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  } finally {
    await cdp.detach();
  }
}

/** The batch dialog a drop (or an offer of files) opens, once it lists `count` files. */
export async function batchDialog(page: Page, count: number): Promise<Locator> {
  const dialog = page.locator('.batch-dialog');
  await poll(() => dialog.locator('tbody tr').count()).toBe(count);
  return dialog;
}

/** The files the batch dialog lists, in its order, as [file name, kind]. */
export function batchRows(dialog: Locator): Promise<string[][]> {
  return dialog
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [(r as any).dataset.file, (r as any).dataset.kind]));
}
