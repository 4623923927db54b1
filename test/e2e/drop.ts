// Dropping files on the page as a desktop drag does: a real `drop` event carrying a DataTransfer of File
// objects built in the page from the given bytes (the OS drag itself left out).
import type { Page } from 'playwright-core';

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
