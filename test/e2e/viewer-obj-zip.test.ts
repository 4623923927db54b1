// e2e: an image-to-3D job's OBJ opened from inside its cached zip (so its MTL and texture load), and a
// retopology job compared with its original, in Chromium with WebGL (SwiftShader).
//  - OBJ: `#/compare/<job>~obj` opens `/cache/<session>/zip/<session>/mesh.obj` (the zip holds a folder named
//    by the session); Babylon fetches mesh.mtl and mesh.png beside it; the stats count a texture; no request
//    answers 404.
//  - Retopology: made with the form from the image-to-3D job's signed GLB URL; its job page links to
//    `#/compare/<original>~glb/<retopo>~retopo_obj`, which shows both models with their stats (and the
//    quad/tri mix of the OBJ; the OBJ is served at `/cache/<session>/retopo_obj/retopo_obj.obj`, so the MTL
//    the cache keeps with it loads from beside it). A retopology of a mesh the cache does not hold says so in words.
// Screenshots go to test-results/viewer/.
import { describe, expect, it } from 'vitest';
import { inputUrl } from '../engine/helpers.ts';
import { realFixture } from '../fixtures.ts';
import { withCacheCapability } from '../../main/host/token.ts';
import { canvasRgb, measure } from './canvas.ts';
import { poll, textOf, type Harness } from './harness.ts';
import { modelShown, useViewerHarness } from './viewer-page.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const location: { hash: string };

const h = useViewerHarness('');
let imageJob: { id: string; remoteId: string; result: Record<string, string> };
const retopoSessions: string[] = [];

const shot = (name: string) => h.screenshot(name);
const go = (hash: string) => h.go(hash);
const number = async (locator: ReturnType<Harness['page']['locator']>) =>
  Number((await locator.innerText()).replace(/,/g, ''));

/** Share of a canvas that differs from its corner colour. */
const covered = async (selector: string) => measure(await canvasRgb(h.page, selector, 80)).covered;

async function cached(sessionId: string, kind: string): Promise<void> {
  await poll(async () => {
    const { outputs } = await h.call('cache.outputs', { sessionId });
    return outputs.some((o: { kind: string; state: string }) => o.kind === kind && o.state === 'complete');
  }, 60_000).toBe(true);
}

/** Creates a retopology job with the form; returns the job once it has succeeded. */
async function retopology(mesh: string): Promise<{ id: string; remoteId: string }> {
  const { page } = h;
  await go('#/library'); // so that the create form is a new one, not showing the job made before
  await poll(textOf(page.locator('h1'))).toBe('Library');
  await go('#/create/retopology');
  await page.check('input[name="retopo-source"] >> nth=2'); // "A URL or asset id" (the library is the default)
  await page.fill('#retopo-mesh', mesh);
  await page.click('button:has-text("Start retopology")');
  await poll(textOf(page.locator('.created .badge')), 60_000).toBe('Done');
  const { jobs } = await h.call('jobs.list', { kinds: ['v3_session'], limit: 10 });
  retopoSessions.push(jobs[0].remoteId);
  return jobs[0];
}

describe('an OBJ from its zip, and a retopology against its original', () => {
  it('has an image-to-3D job with its GLB, OBJ and zip cached', async () => {
    const { page } = h;
    await go('#/library');
    await go('#/create/image-to-3d');
    await page.setInputFiles('#i3d-image-file', realFixture('images', 'chair.png'));
    await poll(textOf(page.locator('.image-source .hint'))).toContain('chair.png');
    await page.selectOption('#i3d-texture', 'baked'); // a textured model (texture_model none has no texture to load)
    await page.click('button:has-text("Create 3D model")');
    await poll(textOf(page.locator('.created .badge')), 60_000).toBe('Done');
    const { jobs } = await h.call('jobs.list', { kinds: ['image_to_3d'], limit: 10 });
    imageJob = jobs[0];
    for (const kind of ['glb', 'obj', 'zip']) await cached(imageJob.remoteId, kind);
  });

  it("opens the job's OBJ from inside its zip, with its MTL and texture", async () => {
    const { page } = h;
    const before = h.requests.length;
    await go(`#/compare/${imageJob.id}~obj`);
    const left = '.compare-side[data-side="a"]';
    await modelShown(h, { scope: left });
    const zip = withCacheCapability(`/cache/${imageJob.remoteId}/zip/${imageJob.remoteId}/`, h.host.token);
    const asked = h.requestedPaths(before);
    expect(asked).toContain(`${zip}mesh.obj`);
    expect(asked).toContain(`${zip}mesh.mtl`);
    expect(asked).toContain(`${zip}mesh.png`);
    expect(asked).not.toContain(withCacheCapability(`/cache/${imageJob.remoteId}/obj`, h.host.token)); // not the bare OBJ
    expect(await page.locator(`${left} .viewer`).getAttribute('data-name')).toBe('obj');
    expect(await number(page.locator(`${left} [data-stat="textures"]`))).toBeGreaterThan(0);
    expect(await number(page.locator(`${left} [data-stat="materials"]`))).toBeGreaterThan(0);
    expect(await number(page.locator(`${left} [data-stat="triangles"]`))).toBeGreaterThan(0);
    expect(await covered(`${left} .viewer-canvas`)).toBeGreaterThan(0.02);
    // The face mix is read from the OBJ inside the zip too.
    await poll(textOf(page.locator(`${left} [data-stat="tris"]`))).toMatch(/^[1-9][\d,]*$/);
    await shot('obj-from-zip');
    expect(h.pageErrors.filter((e) => /404/.test(e))).toEqual([]);
  });

  it('links a retopology job to the compare view against the original it was made from', async () => {
    const { page } = h;
    // The GLB URL as the service gives it (signed; the cache index keys it without the query).
    const glbUrl = imageJob.result.mesh_url_glb || imageJob.result.mesh_url!;
    const retopo = await retopology(glbUrl);
    await cached(retopo.remoteId, 'retopo_obj');
    await cached(retopo.remoteId, 'retopo_obj:mesh.mtl'); // downloaded after the OBJ, from beside its URL
    await go(`#/job/${retopo.id}`);
    const link = page.locator('[data-compare-original]');
    await link.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await link.getAttribute('href')).toBe(`#/compare/${imageJob.id}~glb/${retopo.id}~retopo_obj`);
    expect(await page.locator('[data-original-missing]').count()).toBe(0);
    await link.click();
    await poll(() => page.evaluate(() => location.hash)).toBe(`#/compare/${imageJob.id}~glb/${retopo.id}~retopo_obj`);
    for (const side of ['a', 'b']) {
      const scope = `.compare-side[data-side="${side}"]`;
      await modelShown(h, { scope });
      expect(await number(page.locator(`${scope} [data-stat="triangles"]`))).toBeGreaterThan(0);
      expect(await covered(`${scope} .viewer-canvas`)).toBeGreaterThan(0.02);
    }
    expect(await page.locator('.compare-side[data-side="a"] .viewer').getAttribute('data-name')).toBe('glb');
    expect(await page.locator('.compare-side[data-side="b"] .viewer').getAttribute('data-name')).toBe('retopo_obj');
    // The retopologized OBJ's quad/tri mix (asked with quads: most faces are quads).
    await poll(textOf(page.locator('.compare-side[data-side="b"] [data-stat="quads"]'))).toMatch(/^[1-9][\d,]*$/);
    await shot('retopo-compare-original');
  });

  it('says in words when the original of a retopology is not in the local cache', async () => {
    const { page } = h;
    const retopo = await retopology(inputUrl('meshes/not-here.glb')); // a mesh the engine reads, that the cache does not hold
    await cached(retopo.remoteId, 'retopo_obj');
    await cached(retopo.remoteId, 'retopo_obj:mesh.mtl');
    await go(`#/job/${retopo.id}`);
    await poll(textOf(page.locator('[data-original-missing]')), 20_000).toContain(
      'The original mesh is not in the local cache',
    );
    expect(await page.locator('[data-compare-original]').count()).toBe(0);
    await page.locator('#job-preview-heading').scrollIntoViewIfNeeded();
    await shot('retopo-original-missing');
  });

  it('asked nothing that was not there: a retopologized OBJ finds its MTL beside it in the cache', () => {
    // A retopology session gives a bare OBJ (obj_url, no zip) naming `mtllib mesh.mtl`; the cache keeps that
    // MTL with the OBJ (`retopo_obj:mesh.mtl`) and serves it beside the OBJ's path, where Babylon asks for it.
    expect(retopoSessions.length).toBe(2);
    expect(h.pageErrors.filter((e) => /404/.test(e))).toEqual([]);
  });
});
