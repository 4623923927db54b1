// Creating on the app's create pages as a user does: a real picture chosen in a page's file input, and the
// older step-by-step flow's session started from one.
import { realFixture } from '../fixtures.ts';
import { type Harness, poll, textOf } from './harness.ts';

/** Gives the file input `input` of the page shown the real picture images/`name`, and waits until the page names it. */
export async function choosePicture(h: Harness, input: string, name: string): Promise<void> {
  await h.page.setInputFiles(input, realFixture('images', name));
  await poll(textOf(h.page.locator('.image-source .hint'))).toContain(name);
}

/** Opens the older step-by-step flow and creates its session of the real picture images/`name`. */
export async function createStepByStepSession(h: Harness, name: string): Promise<void> {
  await h.go('#/create/step-by-step');
  await choosePicture(h, '#old-image-file', name);
  await h.page.click('button:has-text("Create session")');
}
