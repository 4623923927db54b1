// e2e: compare, export from the viewer, and the FBX check, in Chromium with WebGL (SwiftShader).
//  - Compare: two library items side by side, both canvases drawn, stats for both; dragging the left view
//    moves the right one.
//  - Export: from a job page with pivot bottom-centre into a temporary Godot project (project.godot): the
//    viewer previews the lowest point at y = 0, and the GLB written has its box's min y ≈ 0 (read back with
//    glTF Transform). A typed path with `..` is shown resolved; exporting again is refused until the
//    overwrite box is ticked, and then the files Godot added (.import) are kept.
//  - FBX check: a real character lying down (Male_Casual turned) gets the orientation warning in the
//    animation upload form, Male_Casual standing does not, and a generated chair-like mesh with no skeleton is
//    told it has no bones, never that it lies down; nothing is uploaded.
//  - No request leaves 127.0.0.1. Screenshots go to test-results/viewer/.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NodeIO, getBounds } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFbxBinary } from '../../main/engine/outputs/index.ts';
import { realFixture } from '../fixtures.ts';
import { LIBRARY_CLIPS } from '../engine/library.ts';
import { lyingCharacter } from '../renderer/lying-character.ts';
import { canvasRgb, fingerprint, grey, measure } from './canvas.ts';
import { poll, textOf } from './harness.ts';
import { modelShown, stat, useViewerHarness } from './viewer-page.ts';

let project: string;
const jobIds: string[] = [];

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'asset-studio-godot-'));
  writeFileSync(
    join(project, 'project.godot'),
    '; Engine configuration file.\nconfig_version=5\n\n[application]\nconfig/name="Viewer export test"\n',
  );
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

const h = useViewerHarness('');

const shot = (name: string) => h.screenshot(name);

/** Share of a canvas that differs from its corner colour, and a coarse fingerprint of its pixels. */
async function canvasPixels(selector: string): Promise<{ covered: number; print: string }> {
  const rgb = await canvasRgb(h.page, selector, 80);
  return { covered: measure(rgb).covered, print: fingerprint(rgb) };
}

/** Creates an image-to-3D job through the form and waits until its GLB is cached; returns its local id. */
async function makeJob(image: string): Promise<string> {
  const { page } = h;
  // Through the library, so that the create form is a new one (not showing the job made before).
  await h.go('#/library');
  await poll(textOf(page.locator('h1'))).toBe('Library');
  await h.go('#/create/image-to-3d');
  await page.setInputFiles('#i3d-image-file', realFixture('images', image));
  await poll(textOf(page.locator('.image-source .hint'))).toContain(image);
  await page.click('button:has-text("Create 3D model")');
  await poll(textOf(page.locator('.created', { hasText: image }).locator('.badge')), 60_000).toBe('Done');
  const { jobs } = await h.call('jobs.list', { search: image, limit: 10 });
  const job = jobs.find((j: { kind: string }) => j.kind === 'image_to_3d');
  await poll(async () => {
    const { outputs } = await h.call('cache.outputs', { sessionId: job.remoteId });
    return outputs.some((o: { kind: string; state: string }) => o.kind === 'glb' && o.state === 'complete');
  }, 60_000).toBe(true);
  return job.id as string;
}

describe('compare and export', () => {
  it('has two image-to-3D jobs with their GLB cached', async () => {
    jobIds.push(await makeJob('chair.png'), await makeJob('robot.png'));
  });

  it('compares two library items side by side with linked cameras', async () => {
    const { page } = h;
    await h.go(`#/compare/${jobIds[0]}/${jobIds[1]}`);
    for (const side of ['a', 'b']) {
      await modelShown(h, { scope: `.compare-side[data-side="${side}"]` });
      expect(await stat(h, 'triangles', `.compare-side[data-side="${side}"]`)).toBeGreaterThan(0);
      expect((await canvasPixels(`.compare-side[data-side="${side}"] .viewer-canvas`)).covered).toBeGreaterThan(0.02);
    }
    await shot('compare-before');
    const right = '.compare-side[data-side="b"] .viewer-canvas';
    const before = await canvasPixels(right);
    const left = (await page.locator('.compare-side[data-side="a"] .viewer-canvas').boundingBox())!;
    await page.mouse.move(left.x + left.width / 2, left.y + left.height / 2);
    await page.mouse.down();
    await page.mouse.move(left.x + left.width / 2 + 160, left.y + left.height / 2 + 40, { steps: 6 });
    await page.mouse.up();
    await poll(
      async () =>
        (await page.locator('.compare-side[data-side="a"] .viewer-canvas').getAttribute('data-rendering')) ?? '',
      10_000,
    ).toBe('idle');
    // The right view was not touched: it changed because its camera followed.
    await poll(async () => (await canvasPixels(right)).print !== before.print).toBe(true);
    await shot('compare-after-orbit');
  });

  it("counts an OBJ's faces by vertex count (Babylon triangulates it)", async () => {
    const { page } = h;
    await h.go(`#/compare/${jobIds[0]}~obj/${jobIds[0]}`);
    const left = page.locator('.compare-side[data-side="a"]');
    await poll(async () => (await left.locator('.viewer').getAttribute('data-state')) ?? '', 30_000).toBe('ready');
    await poll(textOf(left.locator('[data-stat="quads"]'))).toMatch(/^[\d,]+$/);
    const quads = Number((await left.locator('[data-stat="quads"]').innerText()).replace(/,/g, ''));
    const tris = Number((await left.locator('[data-stat="tris"]').innerText()).replace(/,/g, ''));
    expect(quads + tris).toBeGreaterThan(0);
    // Babylon's triangle count is the OBJ's triangles plus two per quad.
    expect(Number((await left.locator('[data-stat="triangles"]').innerText()).replace(/,/g, ''))).toBe(
      tris + 2 * quads,
    );
    expect(await page.locator('.compare-side[data-side="b"] [data-stat="quads"]').count()).toBe(0);
    await shot('compare-obj-faces');
  });

  it('compares an animated job as its animated model, playing, named by the job and the file (not a T-pose USDZ or a key)', async () => {
    // #33, from the walkthrough: compare showed an animation session's T-pose USDZ (one colour, no clips), its
    // facts named "usdz". It shows the animated file the job page shows, with its clips, playing.
    const { page } = h;
    await h.go('#/create/animation');
    await page.setInputFiles('#anim-file', realFixture('fbx', 'Male_Casual.fbx'));
    await page.click('button:has-text("Upload mesh")');
    await poll(textOf(page.locator('.create-form').first().locator('.created .badge')), 200_000).toBe('Done');
    const code = await page.locator('#prompts-session').inputValue();
    const { jobs } = await h.call('jobs.list', { search: code, limit: 10 });
    const job = (jobs as { id: string; kind: string; label: string; name: string | null }[]).find(
      (j) => j.kind === 'animation_session',
    )!;
    await poll(async () => {
      const { outputs } = await h.call('cache.outputs', { sessionId: code });
      return outputs.some((o: { kind: string; state: string }) => o.kind === 'animation' && o.state === 'complete');
    }, 200_000).toBe(true);
    await h.go(`#/compare/${job.id}/${jobIds[0]}`);
    const left = page.locator('.compare-side[data-side="a"]');
    await poll(async () => (await left.locator('.viewer').getAttribute('data-state')) ?? '', 60_000).toBe('ready');
    // The animated FBX (the session's animation with the library's clips), not the session's USDZ.
    expect(await left.locator('.viewer').getAttribute('data-name')).toBe('animation');
    expect(await left.locator('#anim-clip option').allTextContents()).toEqual(LIBRARY_CLIPS);
    await poll(() => left.locator('.animation-controls').getAttribute('data-playing')).toBe('true');
    // Named as the user knows it: the job's name and the file's label, never an output key.
    const title = job.name ?? job.label;
    const file = 'Session animation (all clips)';
    expect(await textOf(left.locator('[data-testid="compare-title"]'))()).toBe(`${title} · ${file}`);
    expect(await left.locator('.viewer-canvas').getAttribute('aria-label')).toContain(`${title} (${file})`);
    expect(await textOf(left.locator('.viewer-stats dd').first())()).toBe(file);
    // Moving: the Walk clip (Idle barely moves), still playing when picked; two frames apart differ.
    await left.locator('#anim-clip').selectOption('1');
    expect(await left.locator('.animation-controls').getAttribute('data-playing')).toBe('true');
    const still = grey(await canvasRgb(page, '.compare-side[data-side="a"] .viewer-canvas', 96));
    await poll(async () => {
      const now = grey(await canvasRgb(page, '.compare-side[data-side="a"] .viewer-canvas', 96));
      return now.filter((v, i) => Math.abs(v - still[i]!) > 8).length > 5;
    }).toBe(true);
    await left.locator('.anim-play').click(); // pause, for a still picture
    await shot('compare-animated');
  });

  it('exports from the viewer with the pivot at the bottom centre into a Godot project', async () => {
    const { page } = h;
    await h.go(`#/job/${jobIds[0]}`);
    const viewer = page.locator('section:has(#job-preview-heading) .viewer');
    await poll(async () => (await viewer.getAttribute('data-state')) ?? '', 30_000).toBe('ready');
    await page.fill('#export-dir', project);
    await poll(textOf(page.locator('#export-dir-hint')), 10_000).toContain('Godot project found');
    await page.selectOption('#export-pivot', 'bottom-center');
    await poll(
      async () => (await page.locator('[data-preview-min]').getAttribute('data-preview-min'))?.split(' ')[1] ?? '',
    ).toMatch(/^-?0\.000$/);
    await page.locator('#job-preview-heading').scrollIntoViewIfNeeded();
    await shot('export-preview');
    await page.click('.export-form button[type="submit"]');
    await page.locator('.export-result').waitFor({ state: 'visible', timeout: 30_000 });
    const shown = await textOf(page.locator('.export-result'))();
    expect(shown).toContain(project);
    await page.locator('.export-result').scrollIntoViewIfNeeded();
    await shot('export-done');
    const glb = (await page.locator('.export-result li code').allTextContents()).find((f) => f.endsWith('.glb'));
    expect(glb).toBeDefined();
    const doc = await new NodeIO().readBinary(readFileSync(resolve(project, glb!)));
    const { min, max } = getBounds(doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0]!);
    expect(Math.abs(min[1])).toBeLessThan(1e-4);
    expect(max[1]).toBeGreaterThan(0);
    expect(Math.abs(min[0] + max[0])).toBeLessThan(1e-4);
    expect(Math.abs(min[2] + max[2])).toBeLessThan(1e-4);
  });

  it('shows a typed path with .. resolved, refuses to replace the earlier export, then replaces it with the overwrite box, keeping engine files', async () => {
    const { page } = h;
    await h.go(`#/job/${jobIds[0]}`);
    await page.waitForSelector('#export-dir');
    await page.fill('#export-dir', `${project}/assets/../assets/..`);
    await poll(textOf(page.locator('#export-dir-hint')), 10_000).toBe(
      `The folder you typed is ${project}. Godot project found at ${project}.`,
    );
    expect(await page.isChecked('#export-overwrite')).toBe(false);
    await page.click('.export-form button[type="submit"]');
    await page.locator('.export-form [role="alert"]').first().waitFor({ state: 'visible', timeout: 15_000 });
    expect(await textOf(page.locator('.export-form [role="alert"]'))()).toMatch(/already exists.*overwrite/s);
    const target = join(project, 'assets', 'asset_studio');
    const [asset] = readdirSync(target);
    const sidecar = join(target, asset!, `${asset}.glb.import`); // what Godot writes beside an imported file
    writeFileSync(sidecar, '[remap]\nimporter="scene"\n');
    await page.check('#export-overwrite');
    await page.click('.export-form button[type="submit"]');
    await page.locator('.export-result').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await textOf(page.locator('.export-result p'))()).toContain(
      `, replacing the earlier export (kept: ${asset}.glb.import):`,
    );
    expect(readFileSync(sidecar, 'utf8')).toBe('[remap]\nimporter="scene"\n');
    expect(readdirSync(target)).toEqual([asset]); // replaced in place: no second folder, nothing left aside
    await page.locator('.export-form').scrollIntoViewIfNeeded();
    await shot('export-overwrite');
  });

  it('an export into a folder that cannot be written says so in words', async () => {
    const { page } = h;
    await page.fill('#export-dir', '/proc/asset-studio-cannot-write-here');
    // A folder that does not exist yet is detected as a new plain folder (no error); only the export fails.
    await poll(async () => (await page.locator('#export-dir-hint').getAttribute('data-detected')) ?? '').toBe('folder');
    expect(await textOf(page.locator('#export-dir-hint'))()).toBe(
      'New folder: the export creates /proc/asset-studio-cannot-write-here.',
    );
    await page.click('.export-form button[type="submit"]');
    await page
      .locator('.export-form .error-box, .export-form [role="alert"]')
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    expect(await textOf(page.locator('.export-form [role="alert"]'))()).toContain(
      '/proc/asset-studio-cannot-write-here',
    );
  });

  it('checks an FBX before the animation upload: a character lying down, no bones and a zip of props warn, Male_Casual does not', async () => {
    const { page } = h;
    await h.go('#/create/animation');
    await page.waitForSelector('#anim-file');
    await page.setInputFiles('#anim-file', realFixture('fbx', 'Male_Casual.fbx'));
    await poll(async () => (await page.locator('.fbx-check').getAttribute('data-state')) ?? '', 30_000).toBe('done');
    expect(await page.locator('.fbx-warnings').count()).toBe(0);
    expect(await textOf(page.locator('[data-fbx-counts]'))()).toMatch(/^[1-9]\d* mesh(es)?, [1-9]\d* bones?, /);
    await h.screenshot('fbx-check-standing', page.locator('.fbx-check'));
    await page.setInputFiles('#anim-file', {
      name: 'Male_Casual_lying.fbx',
      mimeType: 'application/octet-stream',
      buffer: (await lyingCharacter()).fbx,
    });
    await poll(textOf(page.locator('.fbx-warnings')), 30_000).toMatch(
      /^This character is much (wider|deeper) than tall \(.*\): it probably lies down/,
    );
    await h.screenshot('fbx-check-lying', page.locator('.fbx-check'));
    // A generated chair-like mesh (no skeleton, wider and deeper than tall): no bones, and nothing of lying down.
    await page.setInputFiles('#anim-file', {
      name: 'chair.fbx',
      mimeType: 'application/octet-stream',
      buffer: buildFbxBinary('chair', { scale: [0.5, 0.3, 1.8] }),
    });
    await poll(textOf(page.locator('.fbx-warnings')), 30_000).toContain('It has no bones (no skeleton)');
    expect(await page.locator('.fbx-warnings li').count()).toBe(1);
    expect(await textOf(page.locator('.fbx-warnings'))()).not.toContain('lies down');
    await h.screenshot('fbx-check-chair', page.locator('.fbx-check'));
    // A mesh with no bones: warned, not the green "stands up like the reference pose" (#17 item 10).
    await page.setInputFiles('#anim-file', realFixture('fbx', 'blender_282_suzanne_7400_binary.fbx'));
    await poll(textOf(page.locator('.fbx-warnings')), 30_000).toContain('It has no bones (no skeleton)');
    expect(await page.locator('.fbx-ok').count()).toBe(0);
    await h.screenshot('fbx-check-no-bones', page.locator('.fbx-check'));
    // A zip of static props: warned too.
    await page.setInputFiles('#anim-file', realFixture('zip', 'Platformer Kit (1.0).zip'));
    await poll(textOf(page.locator('.fbx-warnings')), 30_000).toContain(
      'none has bones: static props cannot be animated',
    );
    await shot('fbx-check-form');
  });

  it('made no request beyond this machine', () => {
    expect(h.offHost()).toEqual([]);
    // Expected: the refused export (422), and the MTL an OBJ names when it is opened bare (no zip of the
    // session cached: with one, the OBJ opens from inside it and its MTL is found there).
    // (Each also logs "status of 4xx" on the console.) Detecting a folder that does not exist yet is no error.
    const refused = h.pageErrors.filter((e) => /^HTTP 422 \/api\/call\/export\.run$/.test(e)).length;
    const mtl = h.pageErrors.filter((e) => /^HTTP 404 \/cache\/SESSION_\w+\/model\.mtl$/.test(e)).length;
    let console422 = 0;
    let console404 = 0;
    const expected = (e: string) =>
      /^HTTP 422 \/api\/call\/export\.run$|^HTTP 404 \/cache\/SESSION_\w+\/model\.mtl$/.test(e) ||
      (/status of 422/.test(e) && ++console422 <= refused) ||
      (/status of 404/.test(e) && ++console404 <= mtl);
    expect(h.pageErrors.filter((e) => !expected(e))).toEqual([]);
  });
});
