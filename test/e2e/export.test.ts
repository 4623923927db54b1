// e2e: export into game projects from the job page (#16 items 1, 4, 5, 9), in Chromium with WebGL through the
// local web host.
//  - Unity without glTFast in Packages/manifest.json: the format line says so, GLB cannot be picked, the plan
//    and the export write Chair.fbx and no GLB; with glTFast the same job writes Chair.glb and no FBX.
//  - Unreal: the hint speaks in Unreal's axes; Z up and ×100 are warned about as double conversions (the
//    preview reframes on the ×100 model), and the default export writes one transform: the pivot at the bottom
//    centre, the game engines' default (#24 item 7a), said next to the pivot choice.
//  - A retopology job's OBJ is offered and written with its MTL and the texture the MTL names.
//  - An animation job (three text prompts) has the export panel with a checkbox per clip, named by its
//    prompt: two of the three chosen, the GLB written holds exactly those two.
//  - A screenshot of the export panel goes to test-results/viewer/export-panel-unity.png and docs/screenshots/export-panel.png.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { canvasPixels } from './canvas.ts';
import { choosePicture } from './create-page.ts';
import { poll, textOf } from './harness.ts';
import { useViewerHarness } from './viewer-page.ts';

let root: string;
let chairJob: string;
const DOCS_PANEL = resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'export-panel.png');

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'asset-studio-export-e2e-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const h = useViewerHarness('');

function unityProject(name: string, gltfast: boolean): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'Assets'), { recursive: true });
  mkdirSync(join(dir, 'ProjectSettings'));
  writeFileSync(join(dir, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 6000.0.23f1\n');
  mkdirSync(join(dir, 'Packages'));
  const dependencies = { 'com.unity.ugui': '2.0.0', ...(gltfast && { 'com.unity.cloud.gltfast': '6.8.0' }) };
  writeFileSync(join(dir, 'Packages', 'manifest.json'), JSON.stringify({ dependencies }, null, 2));
  return dir;
}

function unrealProject(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'Content'), { recursive: true });
  writeFileSync(join(dir, `${name}.uproject`), JSON.stringify({ FileVersion: 3, EngineAssociation: '5.4' }));
  return dir;
}

/** The job page's export panel pointed at `project`, once the project is detected and the plan is shown. */
async function pointAt(jobId: string, project: string, found: string): Promise<void> {
  const { page } = h;
  await h.go(`#/job/${jobId}`);
  await page.waitForSelector('#export-dir');
  await page.fill('#export-dir', project);
  await poll(textOf(page.locator('#export-dir-hint'))).toContain(found);
  await page.locator('.export-plan, .export-plan-error').first().waitFor({ state: 'visible', timeout: 120_000 });
  expect(await page.locator('.export-plan-error').count(), await textOf(page.locator('.export-form'))()).toBe(0);
}

/** Runs the export and answers the mesh files it wrote (names in the asset folder) and the folder. */
async function exportNow(): Promise<{ meshes: string[]; files: string[] }> {
  const { page } = h;
  await page.click('.export-form button[type="submit"]');
  await page.locator('.export-result').waitFor({ state: 'visible', timeout: 120_000 });
  const files = await page.locator('.export-result li code').allTextContents();
  return { files, meshes: files.filter((f) => /\.(glb|fbx|obj)$/.test(f)) };
}

describe('export from the job page', () => {
  it('has a textured image-to-3D job with its GLB and FBX cached', async () => {
    const { page } = h;
    await h.go('#/create/image-to-3d');
    await choosePicture(h, '#i3d-image-file', 'chair.png');
    await page.selectOption('#i3d-texture', 'baked'); // a textured model: every format carries its texture
    await page.click('button:has-text("Create 3D model")');
    await poll(textOf(page.locator('.created', { hasText: 'chair.png' }).locator('.badge'))).toBe('Done');
    const { jobs } = await h.call('jobs.list', { search: 'chair.png', limit: 10 });
    const job = (jobs as { id: string; kind: string; remoteId: string }[]).find((j) => j.kind === 'image_to_3d')!;
    chairJob = job.id;
    await poll(async () => {
      const { outputs } = await h.call('cache.outputs', { sessionId: job.remoteId });
      return ['glb', 'fbx'].every((k) =>
        (outputs as { kind: string; state: string }[]).some((o) => o.kind === k && o.state === 'complete'),
      );
    }).toBe(true);
  });

  it('writes FBX alone into a Unity project without glTFast, and says what Unity needs', async () => {
    const { page } = h;
    const project = unityProject('UnityPlain', false);
    await pointAt(chairJob, project, 'Unity project found');
    await poll(textOf(page.locator('#export-format-hint'))).toContain(
      'Unity imports FBX natively; GLB needs glTFast or UnityGLTF (not found in Packages/manifest.json).',
    );
    expect(await page.locator('#export-format option[value="glb"]').isDisabled()).toBe(true);
    expect(await page.locator('#export-format option[value="auto"]').textContent()).toBe("Unity's default (FBX)");
    await poll(textOf(page.locator('.export-plan'))).toMatch(/Will write into \S+: Chair\.fbx/);
    expect(await textOf(page.locator('.export-plan'))()).toMatch(
      /Not written: (the GLB|\S+\.glb) because Unity gets FBX here: one format per export, so the model is imported once/,
    );
    const { meshes } = await exportNow();
    expect(meshes.map((f) => f.split('/').pop())).toEqual(['Chair.fbx']);
    const target = join(project, 'Assets', 'AssetStudio', 'Chair');
    expect(readdirSync(target).filter((n) => /\.(glb|fbx|obj)$/.test(n))).toEqual(['Chair.fbx']);
  });

  it('writes GLB alone into a Unity project with glTFast (screenshot of the panel)', async () => {
    const { page } = h;
    const project = unityProject('UnityGltfast', true);
    await pointAt(chairJob, project, 'Unity project found');
    await poll(textOf(page.locator('#export-format-hint'))).toContain('(found: glTFast in Packages/manifest.json)');
    await poll(textOf(page.locator('.export-plan'))).toMatch(/Will write into \S+: Chair\.glb/);
    await page.locator('.export-form').scrollIntoViewIfNeeded();
    // The README's picture of the panel (docs/screenshots/export-panel.png).
    copyFileSync(await h.screenshot('export-panel-unity', page.locator('.export-form')), DOCS_PANEL);
    const { meshes } = await exportNow();
    expect(meshes.map((f) => f.split('/').pop())).toEqual(['Chair.glb']);
    expect(
      readdirSync(join(project, 'Assets', 'AssetStudio', 'Chair')).filter((n) => /\.(glb|fbx|obj)$/.test(n)),
    ).toEqual(['Chair.glb']);
  });

  it("speaks in Unreal's axes, warns of Z up and ×100, reframes the preview, and by default writes only the bottom-centre pivot", async () => {
    const { page } = h;
    const project = unrealProject('UnrealGame');
    await pointAt(chairJob, project, 'Unreal project found');
    // A game engine's default pivot: the bottom centre, said so next to it (#24 item 7a).
    expect(await page.locator('#export-pivot').inputValue()).toBe('default');
    expect(await page.locator('#export-pivot option:checked').textContent()).toBe('Bottom centre (default)');
    await poll(textOf(page.locator('#export-pivot-hint'))).toBe(
      "Pivot: bottom centre by default for Unreal. Game engines place a model by its origin; the service's models have it at the centre of their box, half below the floor. Bottom centre makes the model stand on the floor.",
    );
    await poll(async () => (await page.locator('[data-preview-min]').textContent()) ?? '').toContain(
      'lowest point at y = 0.00',
    );
    await poll(textOf(page.locator('#export-axes'))).toContain(
      "Unreal: X forward, Z up, centimetres — the importer converts from the file's metres/Y-up.",
    );
    expect(await page.locator('.export-twice').count()).toBe(0);
    await page.selectOption('#export-up', 'y-to-z');
    await poll(textOf(page.locator('.export-twice'))).toContain('would make the model lie on its side');
    await page.selectOption('#export-up', 'none');
    const canvas = 'section:has(#job-preview-heading) .viewer-canvas';
    // Y up again, standing on the floor (the default pivot): the preview is back before the picture is taken.
    await poll(async () => (await page.locator('[data-preview-min]').textContent()) ?? '').toMatch(
      /The model will be 0\.\d+ ×.*lowest point at y = 0\.00/,
    );
    await poll(async () => (await page.locator(canvas).getAttribute('data-rendering')) ?? '').toBe('idle');
    const before = await canvasPixels(page, canvas);
    await page.selectOption('#export-scale', 'factor');
    await page.fill('#export-scale-value', '100');
    await poll(textOf(page.locator('.export-twice'))).toContain('×100 makes the model 100 times too large');
    // The preview reframes: the 100-times larger model takes about as much of the view as before (the camera
    // moved back with its clip planes and zoom limits), not filling it from too close or clipped.
    await poll(async () => (await page.locator('[data-preview-min]').textContent()) ?? '').toMatch(
      /The model will be \d{2,}/,
    );
    await poll(async () => (await page.locator(canvas).getAttribute('data-rendering')) ?? '').toBe('idle');
    await poll(async () => {
      const ratio = (await canvasPixels(page, canvas)).covered / before.covered;
      return ratio > 0.6 && ratio < 1.6 ? 'reframed' : `covered ${ratio.toFixed(2)}× as much as before`;
    }).toBe('reframed');
    await h.screenshot('export-unreal-x100', page.locator('section:has(#job-preview-heading)'));
    await page.selectOption('#export-scale', 'none');
    await poll(async () => page.locator('.export-twice').count()).toBe(0);
    await poll(textOf(page.locator('.export-plan'))).toMatch(/Will write into \S+: Chair\.fbx/);
    const { meshes } = await exportNow();
    expect(meshes.map((f) => f.split('/').pop())).toEqual(['Chair.fbx']);
    const dir = join(project, 'Content', 'AssetStudio', 'Chair');
    const manifest = JSON.parse(readFileSync(join(dir, 'Chair.assetstudio.json'), 'utf8')) as {
      transforms?: unknown;
      files: { transformed: boolean }[];
    };
    expect(manifest.transforms).toEqual({ pivot: 'bottom-center' });
    expect(manifest.files.some((f) => f.transformed)).toBe(true);
  });

  it("offers a retopology job's OBJ with its MTL and texture, and writes them together", async () => {
    const { page } = h;
    await h.go('#/library'); // so that the create form is a new one
    await poll(textOf(page.locator('h1'))).toBe('Library');
    await h.go('#/create/retopology');
    await poll(() => page.locator(`#retopo-job option[value="${chairJob}"]`).count()).toBe(1);
    await page.selectOption('#retopo-job', chairJob);
    await page.click('button:has-text("Start retopology")');
    await poll(textOf(page.locator('.created .badge'))).toBe('Done');
    const { jobs } = await h.call('jobs.list', { kinds: ['v3_session'], limit: 10 });
    const job = (jobs as { id: string }[])[0]!;
    const project = join(root, 'retopo-godot');
    mkdirSync(project);
    writeFileSync(join(project, 'project.godot'), 'config_version=5\n');
    await pointAt(job.id, project, 'Godot project found');
    const willWrite = async () =>
      ((await textOf(page.locator('.export-plan p:not(.hint)'))()).split(': ').pop() ?? '')
        .split(', ')
        .map((n) => n.split('.').pop())
        .sort();
    await poll(willWrite).toEqual(['mtl', 'obj', 'png']);
    const { files, meshes } = await exportNow();
    expect(meshes.map((f) => f.split('.').pop())).toEqual(['obj']);
    const mtl = files.find((f) => f.endsWith('.mtl'))!;
    expect(mtl).toBeDefined();
    const texture = /^map_Kd (.+)$/m.exec(readFileSync(mtl, 'utf8'))?.[1];
    expect(texture).toMatch(/\.png$/);
    expect(existsSync(join(dirname(mtl), texture!))).toBe(true);
    expect(readFileSync(meshes[0]!, 'utf8')).toMatch(
      new RegExp(`^mtllib ${mtl.split('/').pop()!.replace('.', '\\.')}$`, 'm'),
    );
  });

  it('exports an animation job with two of its three clips, chosen by their prompts', async () => {
    const { page } = h;
    await h.go('#/create/animation');
    await page.setInputFiles('#anim-file', realFixture('fbx', 'Male_Casual.fbx'));
    await page.click('button:has-text("Upload mesh")');
    await poll(textOf(page.locator('.create-form').first().locator('.created .badge'))).toBe('Done');
    await poll(() => page.locator('#prompts-session').inputValue()).toMatch(/^SESSION_/);
    const code = await page.locator('#prompts-session').inputValue();
    await page.fill('#prompts-texts', 'walk forward\nwave with the right hand\njump up high');
    await poll(textOf(page.locator('button:has-text("Animate")'))).toContain('3 prompts');
    await page.click('button:has-text("Animate")');
    await poll(textOf(page.locator('.create-form').nth(1).locator('.created .badge'))).toBe('Done');
    const { jobs } = await h.call('jobs.list', { search: code, limit: 10 });
    const job = (jobs as { id: string; kind: string }[]).find((j) => j.kind === 'animation_prompt')!;
    expect(job).toBeDefined();
    const project = join(root, 'clips-folder');
    await pointAt(job.id, project, 'New folder');
    await poll(async () =>
      (await page.locator('.export-clips label').allTextContents()).map((t) => t.trim()),
    ).toHaveLength(3);
    const names = (await page.locator('.export-clips label').allTextContents()).map((t) => t.trim());
    expect(
      names.some((n) => /SESSION_|prompt:/.test(n)),
      `clip names ${names.join(', ')}`,
    ).toBe(false);
    expect(names.join(' | ')).toMatch(/walk forward.*wave with the right hand.*jump up high/);
    await page.locator('.export-clips label', { hasText: 'wave with the right hand' }).locator('input').uncheck();
    const { meshes } = await exportNow();
    expect(meshes).toHaveLength(1);
    const glb = meshes[0]!;
    expect(glb.endsWith('.glb')).toBe(true);
    const doc = await new NodeIO().readBinary(
      new Uint8Array(readFileSync(glb.startsWith('/') ? glb : resolve(project, glb))),
    );
    const animations = doc
      .getRoot()
      .listAnimations()
      .map((a) => a.getName());
    expect(animations).toHaveLength(2);
    expect(animations.join(' | ')).toMatch(/walk forward/);
    expect(animations.join(' | ')).toMatch(/jump up high/);
    expect(animations.join(' | ')).not.toMatch(/wave/);
    expect(existsSync(dirname(glb.startsWith('/') ? glb : resolve(project, glb)))).toBe(true);
    // Named after the library entry, the character's file, not after its prompts ('3 animations: walk forward').
    expect(basename(dirname(glb.startsWith('/') ? glb : resolve(project, glb)))).toBe('Male_Casual');
    expect(h.offHost()).toEqual([]);
  });
});
