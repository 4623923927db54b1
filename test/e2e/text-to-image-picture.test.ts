// e2e: a text-to-image job shows its picture (#24 item 6): large on its job page, in its library row, and in
// the "make a 3D model from this picture" form; the 3D job made from it is named after the prompt, not a file name.
import { expect, it } from 'vitest';
import { poll, textOf, useHarness } from './harness.ts';

const h = useHarness({}, '');
const PROMPT = 'a small red lantern on a mossy stone';

type Job = { id: string; kind: string; state: string; label: string; outputsFetched: boolean };

/** The decoded size of an <img> (0×0 until the browser has the picture). */
const naturalSize = (selector: string) => () =>
  h.page.evaluate((s) => {
    const img = (globalThis as any).document.querySelector(s) as {
      complete: boolean;
      naturalWidth: number;
      naturalHeight: number;
    } | null;
    return img?.complete ? `${img.naturalWidth}x${img.naturalHeight}` : '0x0';
  }, selector);

it('shows the picture on the job page, in the library and in the make-3D form; the 3D job is named after the prompt', async () => {
  const { page } = h;
  await page.setViewportSize({ width: 1280, height: 900 });
  // Made from the form, as a user does.
  await h.go('#/create/text-to-image');
  await page.fill('#tti-prompt', `  ${PROMPT}  `);
  await page.click('button:has-text("Create image")');
  let picture: Job | undefined;
  await poll(async () => {
    picture = ((await h.call('jobs.list', { limit: 50, kinds: ['text_to_image'] })).jobs as Job[])[0];
    return picture?.state === 'succeeded' && picture.outputsFetched;
  }, 240_000).toBe(true);

  // The picture at its own size, not 0×0.
  await h.go(`#/job/${picture!.id}`);
  await poll(naturalSize('img.job-picture'), 240_000).not.toBe('0x0');
  const size = await naturalSize('img.job-picture')();
  const [w, h2] = size.split('x').map(Number);
  expect(w).toBeGreaterThan(64);
  expect(h2).toBeGreaterThan(64);
  // Shown large: wider than a thumbnail.
  expect((await page.locator('img.job-picture').boundingBox())!.width).toBeGreaterThan(200);
  await h.screenshot('t2i-job-page');

  // The library row has its thumbnail: the picture itself.
  await h.go('#/library');
  const thumb = `.job-row[data-job-id="${picture!.id}"] .thumb img`;
  await poll(naturalSize(thumb), 60_000).toBe(size);
  await h.screenshot('t2i-library', page.locator(`.job-row[data-job-id="${picture!.id}"]`));

  // The make-3D form shows the picture, named after the prompt.
  await h.go(`#/job/${picture!.id}`);
  await page.locator('[data-next="image-to-3d"]').click();
  await poll(() => page.evaluate(() => (globalThis as any).location.hash)).toBe('#/create/image-to-3d');
  await poll(naturalSize('img.image-source-preview'), 30_000).toBe(size);
  expect(await page.locator('#i3d-label').inputValue()).toBe(`3D of ${PROMPT}`);
  await h.screenshot('t2i-make-3d-form');
  await page.click('button:has-text("Create 3D model")');
  await poll(textOf(page.locator('.create-form').first().locator('.created .badge').first()), 240_000).toBe('Done');
  const [model] = (await h.call('jobs.list', { limit: 50, kinds: ['image_to_3d'] })).jobs as Job[];
  expect(model!.label).toBe(`3D of ${PROMPT}`);
  expect(h.offHost()).toEqual([]);
});
