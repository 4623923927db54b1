// e2e: the library (#17 items 3-5) in Chromium over the real web host and its embedded engine: finished
// jobs show real pictures (a render of the model, a text-to-image's own image; no letter tiles), a name
// can be changed and stays changed over a reload, sort and filter, an older-flow session is one entry
// with its steps inside, and a delete removes the record and its cached files (the service keeps its copy).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { withCacheCapability } from '../../main/host/token.ts';
import { poll, textOf, useHarness } from './harness.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const document: any;

// Opened on Settings: the library asks for pictures only once the jobs' models are cached (see the first test).
const h = useHarness({}, '#/settings');
/** The library's Jobs panel. */
const JOBS = 'section[aria-labelledby="jobs-heading"]';
const DOCS_SHOT = resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'library.png');

const dataUri = (name: string) =>
  `data:image/png;base64,${readFileSync(realFixture('images', name)).toString('base64')}`;

interface Listed {
  id: string;
  remoteId: string;
  state: string;
  outputsFetched: boolean;
  name: string;
  steps?: { id: string; step: string; state: string }[];
}

async function create(input: object): Promise<{ id: string; remoteId: string }> {
  const r = await h.call('create', input);
  expect(r.job, JSON.stringify(r)).toBeTruthy();
  return { id: r.job.id, remoteId: r.job.remoteId };
}

async function finished(id: string): Promise<void> {
  await poll(async () => {
    const j = (await h.call('jobs.get', { id })) as Listed;
    return j.state === 'succeeded' && j.outputsFetched;
  }, 240_000).toBe(true);
}

/** How many distinct colours the row's picture has, as the browser decoded it (0: no decoded picture). */
function pictureColours(jobId: string): () => Promise<number> {
  return () =>
    h.page.evaluate((id) => {
      const img = document.querySelector(`.job-row[data-job-id="${id}"] .thumb img`);
      if (!img?.complete || img.naturalWidth === 0) return 0;
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const seen = new Set();
      for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    }, jobId);
}

describe('library', () => {
  let chair: { id: string; remoteId: string };
  let barrel: { id: string; remoteId: string };
  let older: { id: string; remoteId: string };

  it('shows a real picture of each finished job: a render of the model, the text-to-image its image', async () => {
    chair = await create({
      endpoint: 'createImageTo3d',
      body: { image_url: dataUri('chair.png') },
      label: 'chair.png',
    });
    barrel = await create({ endpoint: 'createTextToImage', body: { prompt: 'a red barrel' } });
    older = await create({
      endpoint: 'createImageTo3dLegacy',
      body: { image_url: dataUri('robot.png') },
      label: 'robot.png (step by step)',
    });
    await Promise.all([finished(chair.id), finished(barrel.id), finished(older.id)]);
    const code = older.remoteId;
    const preview = await create({
      endpoint: 'preview',
      params: { session_code: code },
      body: { model_version: '1.1', selected_spin_index: 0, pivot_point: [0, 0, 0] },
      label: `${code} preview`,
    });
    await finished(preview.id);
    const refine = await create({
      endpoint: 'refine',
      params: { session_code: code },
      body: { pivot_point: [0, 0, 0] },
      label: `${code} refine`,
    });
    await finished(refine.id);

    const { page } = h;
    // The library draws a job's picture from its best cached model: the chair's GLB first (its OBJ may reach the
    // cache before it, and a picture drawn from the OBJ would be drawn again once the GLB is there).
    await poll(async () =>
      (
        (await h.call('cache.outputs', { sessionId: chair.remoteId })) as { outputs: { kind: string; state: string }[] }
      ).outputs.some((o) => o.kind === 'glb' && o.state === 'complete'),
    ).toBe(true);
    await h.go('#/library');
    for (const job of [chair, barrel, older]) {
      await page.locator(`.job-row[data-job-id="${job.id}"]`).waitFor({ state: 'visible' });
      // A decoded picture with many colours (a shaded model on a gradient, a painted image), not a tile.
      await poll(pictureColours(job.id)).toBeGreaterThan(40);
    }
    expect(await page.locator('.thumb-kind').count()).toBe(0); // no letter tiles
    const src = (id: string) => page.locator(`.job-row[data-job-id="${id}"] .thumb img`).getAttribute('src');
    expect(await src(chair.id)).toContain(withCacheCapability(`/cache/${chair.remoteId}/thumbnail`, h.host.token));
    expect(await src(barrel.id)).toContain(withCacheCapability(`/cache/${barrel.remoteId}/image`, h.host.token));
    // The render is kept beside the outputs: a reload shows it from the list, with no second render.
    const entry = h.host.bridge.services.store.cache.get({ sessionId: chair.remoteId, kind: 'thumbnail' })!;
    expect(entry).toMatchObject({ state: 'complete', urlKey: 'local:thumbnail?from=glb' });
    await page.reload();
    await poll(pictureColours(chair.id)).toBeGreaterThan(40);
    expect(h.host.bridge.services.store.cache.get({ sessionId: chair.remoteId, kind: 'thumbnail' })).toMatchObject({
      id: entry.id,
      createdAt: entry.createdAt,
    });

    const shot = await h.screenshot('library-thumbnails', page.locator(JOBS));
    mkdirSync(resolve(DOCS_SHOT, '..'), { recursive: true });
    copyFileSync(shot, DOCS_SHOT);
  });

  it('lists an older-flow session as one entry with its steps inside; a search finds it once', async () => {
    const { page } = h;
    await page.fill('#filter-search', older.remoteId);
    await poll(textOf(page.locator(`${JOBS} .count`))).toBe('1 job');
    const row = page.locator(`.job-row[data-job-id="${older.id}"]`);
    await poll(textOf(row.locator('.job-title'))).toBe('robot.png (step by step)');
    await poll(() => row.locator('.entry-steps li').count()).toBe(3);
    expect(
      await row.locator('.entry-steps li').evaluateAll((items: any[]) => items.map((li) => li.dataset.step)),
    ).toEqual(['spin', 'preview', 'refine']);
    await poll(textOf(row.locator('.job-status .badge'))).toBe('Done');
    await page.fill('#filter-search', '');
    await poll(textOf(page.locator(`${JOBS} .count`))).toBe('3 jobs');
  });

  it('renames a job; the name stays over a reload and search finds it', async () => {
    const { page } = h;
    const row = page.locator(`.job-row[data-job-id="${barrel.id}"]`);
    await row.locator('button:has-text("Rename")').click();
    await row.locator('.rename input').fill('Hero barrel');
    await row.locator('.rename input').press('Enter');
    await poll(textOf(row.locator('.job-title'))).toBe('Hero barrel');
    await page.reload();
    await page.waitForSelector('#app-root[data-ready="true"]');
    await poll(textOf(page.locator(`.job-row[data-job-id="${barrel.id}"] .job-title`))).toBe('Hero barrel');
    await page.fill('#filter-search', 'hero');
    await poll(textOf(page.locator('.job-list .job-title'))).toBe('Hero barrel');
    await page.fill('#filter-search', '');
    await poll(textOf(page.locator(`${JOBS} .count`))).toBe('3 jobs');
  });

  it('sorts by name and filters by kind, state and date', async () => {
    const { page } = h;
    const titles = textOf(page.locator('.job-list .job-title'));
    await page.selectOption('#filter-sort', 'name');
    await poll(titles).toBe('chair.png Hero barrel robot.png (step by step)');
    await page.selectOption('#filter-sort', 'newest');
    await poll(titles).toBe('robot.png (step by step) Hero barrel chair.png');
    await page.selectOption('#filter-sort', 'oldest'); // made in that order
    await poll(titles).toBe('chair.png Hero barrel robot.png (step by step)');
    await page.selectOption('#filter-kind', 'text_to_image');
    await poll(titles).toBe('Hero barrel');
    await page.selectOption('#filter-kind', '');
    await page.selectOption('#filter-state', 'failed');
    await poll(textOf(page.locator(`${JOBS} [data-testid="empty-library"] p`))).toBe(
      'None of the 3 jobs in the library match these filters: State: Failed or cancelled.',
    );
    await page.selectOption('#filter-state', 'succeeded');
    await page.selectOption('#filter-date', 'today');
    await poll(textOf(page.locator(`${JOBS} .count`))).toBe('3 jobs');
    await page.selectOption('#filter-state', '');
    await page.selectOption('#filter-date', 'any');
  });

  it('deletes selected entries: records and cached files go, the confirm says the service keeps its copy', async () => {
    const { page } = h;
    const store = h.host.bridge.services.store;
    const cacheDir = h.host.bridge.services.cache.dir;
    const blobsOf = (sessionId: string) =>
      store.cache
        .list()
        .filter((e) => e.sessionId === sessionId && e.blobPath !== null)
        .map((e) => join(cacheDir, e.blobPath!));
    const files = [...blobsOf(chair.remoteId), ...blobsOf(older.remoteId)];
    expect(files.length).toBeGreaterThan(3);
    expect(files.every((f) => existsSync(f))).toBe(true);

    await page.locator(`.job-row[data-job-id="${chair.id}"] input.select`).check();
    await page.locator(`.job-row[data-job-id="${older.id}"] input.select`).check();
    await poll(textOf(page.locator('.selection-bar > label'))).toBe('2 entries selected');
    await page.click('.selection-bar button:has-text("Delete…")');
    const confirm = page.locator('.selection-bar [role="alertdialog"]');
    await poll(textOf(confirm)).toContain("The service's copy is not deleted");
    await h.screenshot('library-delete-confirm', page.locator(JOBS));
    await confirm.locator('button:has-text("Delete 2 entries")').click();
    await poll(textOf(page.locator(`${JOBS} .count`))).toBe('1 job');
    await poll(textOf(page.locator('.job-list .job-title'))).toBe('Hero barrel');

    // The records (every step of the older-flow session) and their cached files are gone; the service still has the sessions.
    expect(store.jobs.get(chair.id)).toBeUndefined();
    expect(store.jobs.list({ search: older.remoteId })).toEqual([]);
    expect(store.cache.list().filter((e) => e.sessionId === chair.remoteId || e.sessionId === older.remoteId)).toEqual(
      [],
    );
    expect(files.filter((f) => existsSync(f))).toEqual([]);
    const remote = await h.host.bridge.services.client.getImageTo3d(chair.remoteId);
    expect(remote).toBeTruthy();
    expect(h.pageErrors).toEqual([]);
  });
});
