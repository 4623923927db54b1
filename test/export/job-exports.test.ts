// Exports of real jobs of the embedded engine (#16 items 1, 2, 3, 9), made through the web host as the app
// makes them and exported from the download cache with exportJob, the function the CLI and the app call:
// an animation with the library clips and two text prompts (one GLB holding every clip, by name), a
// retopology (the cache keeps its OBJ's MTL and texture; the export writes them, references renamed, and no
// preview picture), the chair image-to-3D (its FBX's material uses its embedded texture; with transforms the
// FBX and OBJ are made from the transformed model).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipSourcesOf, exportJob, planJob, type JobExportDeps } from '../../main/export/from-job.ts';
import { readManifest } from '../../main/export/manifest.ts';
import type { RunningWebHost } from '../../main/host/web-host.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { parseOutputKind } from '../../shared/output-kind.ts';
import { tempDir as hostTempDir } from '../host/helpers.ts';
import { exportDeps, sampleJobs, startTestHost, webHostClient } from '../host/web-host-client.ts';
import { child, expectTexturedFbx } from './fbx-nodes.ts';
import { makeProject, readGlb, tempDir, validatorErrors, withGltfast } from './helpers.ts';

const PROMPTS = ['wave with both hands', 'spin on the spot'];
const data = hostTempDir('export-jobs');
let host: RunningWebHost;
let deps: JobExportDeps;
const client = webHostClient(() => host);
let jobs: Record<'chair' | 'animation' | 'prompts' | 'retopology', JobRecord>;

beforeAll(async () => {
  host = await startTestHost(join(data.path, 'data'));
  jobs = await sampleJobs(client, PROMPTS);
  deps = exportDeps(host);
}, 900_000);

afterAll(async () => {
  await host?.close();
  data.remove();
});

const library = () => ((jobs.animation.result as any).animation_library as { label: string }[]).map((a) => a.label);
/** The prompts' texts as the session has them (the engine may accept fewer than were sent). */
const prompts = () => ((jobs.prompts.result as any).prompts as { text: string }[]).map((p) => p.text);

describe('animation jobs (items 1, 9)', () => {
  it("export ONE GLB with the user's prompts by default, or every clip of the session when asked, named by library label and prompt text, and no joint render", async () => {
    const clips = clipSourcesOf(jobs.prompts, deps.cache);
    expect(clips.map((c) => [c.source, c.name])).toEqual([
      ...library().map((l) => ['library', l]),
      ...prompts().map((p) => ['prompt', p]),
    ]);
    // The engine's clips are GLB, or FBX as the service delivers them (ASSET_STUDIO_ENGINE_ANIMATION_FILES=fbx): their bytes say which.
    expect(new Set(clips.map((c) => c.format)).size).toBe(1);
    const byDefault = await exportJob(deps, jobs.prompts, { projectDir: makeProject('godot'), name: 'hero' });
    expect(byDefault.clips).toEqual({ written: prompts(), skipped: [] });
    for (const job of [jobs.prompts, jobs.animation]) {
      const result = await exportJob(deps, job, {
        projectDir: makeProject('godot'),
        name: 'hero',
        clips: ['library', ...prompts()],
      });
      expect(result.files.map((f) => basename(f.path))).toEqual(['hero.glb']);
      expect(result.skipped.some((s) => s.kind === 'texture')).toBe(false); // the render is no texture: not even offered
      const doc = await readGlb(result.files[0]!.path);
      expect(
        doc
          .getRoot()
          .listAnimations()
          .map((a) => a.getName()),
      ).toEqual([...library(), ...prompts()]);
      expect(doc.getRoot().listSkins()).toHaveLength(1);
      expect(doc.getRoot().listMeshes()).toHaveLength(1);
      for (const a of doc.getRoot().listAnimations()) expect(a.listChannels().length).toBeGreaterThan(0);
      expect(await validatorErrors(readFileSync(result.files[0]!.path))).toEqual([]);
      expect((await readManifest(result.manifestPath)).clips).toEqual([...library(), ...prompts()]);
      expect(result.clips).toEqual({ written: [...library(), ...prompts()], skipped: [] });
    }
  });

  it('keeps the clips asked for (by name or output key), in the session order, and refuses an unknown one naming the choices', async () => {
    const key = clipSourcesOf(jobs.prompts, deps.cache).find((c) => c.name === prompts().at(-1))!.id;
    const result = await exportJob(deps, jobs.prompts, {
      projectDir: tempDir(),
      name: 'two clips',
      clips: [key, library()[0]!],
    });
    const doc = await readGlb(result.files.find((f) => f.kind === 'glb')!.path);
    expect(
      doc
        .getRoot()
        .listAnimations()
        .map((a) => a.getName()),
    ).toEqual([library()[0], prompts().at(-1)]);
    await expect(
      exportJob(deps, jobs.prompts, { projectDir: tempDir(), name: 'none', clips: ['moonwalk'] }),
    ).rejects.toMatchObject({
      code: 'bad-input',
      file: 'clips',
      message: expect.stringContaining(`"${prompts()[0]}"`),
    });
  });

  it('with transforms, the GLB holds every clip baked, and an FBX asked for is refused with the reason', async () => {
    const result = await exportJob(deps, jobs.prompts, {
      projectDir: tempDir(),
      name: 'tall hero',
      clips: ['all'],
      transforms: { scale: { height: 2 }, pivot: 'bottom-center' },
    });
    const doc = await readGlb(result.files[0]!.path);
    expect(doc.getRoot().listAnimations()).toHaveLength(library().length + prompts().length);
    expect(result.bbox!.size[1]).toBeCloseTo(2, 5);
    for (const root of doc.getRoot().getDefaultScene()!.listChildren()) expect(root.getScale()).toEqual([1, 1, 1]);
    await expect(
      exportJob(deps, jobs.prompts, {
        projectDir: tempDir(),
        name: 'fbx hero',
        format: 'fbx',
        transforms: { scale: { factor: 2 } },
      }),
    ).rejects.toMatchObject({
      code: 'bad-format',
      message: expect.stringContaining('FBX is not written with transforms for animated models'),
    });
  });
});

describe('retopology jobs (items 2, 9)', () => {
  it('the cache keeps the OBJ with the MTL it names and the texture the MTL names', () => {
    const kinds = deps.cache
      .list()
      .filter((e) => e.sessionId === jobs.retopology.remoteId && e.state === 'complete')
      .map((e) => e.kind);
    const companions = kinds.map(parseOutputKind).filter((k) => k?.type === 'obj-file');
    expect(companions.map((k) => k!.type === 'obj-file' && k.name.split('.').pop())).toEqual(
      expect.arrayContaining(['mtl', 'png']),
    );
  });

  it('exports the OBJ with its MTL and texture, references renamed, and not the preview picture', async () => {
    for (const engine of ['godot', 'unity'] as const) {
      const root = makeProject(engine);
      const result = await exportJob(deps, jobs.retopology, { projectDir: root, name: 'chair low', format: 'obj' });
      const names = readdirSync(result.targetDir)
        .filter((n) => !n.endsWith('.json'))
        .sort();
      const stem = engine === 'godot' ? 'chair_low' : 'ChairLow';
      const texture = /^map_Kd (.+)$/m.exec(readFileSync(join(result.targetDir, `${stem}.mtl`), 'utf8'))![1]!;
      expect(texture.startsWith(`${stem}_`)).toBe(true); // renamed after the asset
      expect(names).toEqual([texture, `${stem}.mtl`, `${stem}.obj`].sort());
      expect(readFileSync(join(result.targetDir, texture)).subarray(1, 4).toString()).toBe('PNG');
      expect(readFileSync(join(result.targetDir, `${stem}.obj`), 'utf8')).toMatch(
        new RegExp(`^mtllib ${stem}\\.mtl$`, 'm'),
      );
      expect(readFileSync(join(result.targetDir, `${stem}.mtl`), 'utf8')).toMatch(
        new RegExp(`^map_Kd ${texture.replace('.', '\\.')}$`, 'm'),
      );
      expect(result.skipped.filter((s) => s.kind === 'texture')).toEqual([]);
    }
  });
});

describe('image-to-3D jobs (items 2, 3)', () => {
  it('the OBJ comes with its MTL and texture (kept in the cache beside it), references renamed', async () => {
    const result = await exportJob(deps, jobs.chair, {
      projectDir: makeProject('godot'),
      name: 'chair',
      format: 'obj',
    });
    expect(result.files.map((f) => f.kind).sort()).toEqual(['mtl', 'obj', 'texture']);
    expect(readFileSync(join(result.targetDir, 'chair.obj'), 'utf8')).toMatch(/^mtllib chair\.mtl$/m);
    const texture = /^map_Kd (.+)$/m.exec(readFileSync(join(result.targetDir, 'chair.mtl'), 'utf8'))![1]!;
    expect(result.files.map((f) => basename(f.path))).toContain(texture);
  });

  it('the FBX: its material takes its diffuse colour from a texture whose video embeds the PNG', async () => {
    const result = await exportJob(deps, jobs.chair, { projectDir: makeProject('unity'), name: 'chair' });
    const fbx = result.files.find((f) => f.kind === 'fbx')!;
    expectTexturedFbx(readFileSync(fbx.path));
  });

  it('with transforms, writes the FBX or OBJ made from the transformed model (2 m tall, on the ground), with its texture', async () => {
    const transforms = { scale: { height: 2 }, pivot: 'bottom-center' } as const;
    const fbx = await exportJob(deps, jobs.chair, { projectDir: makeProject('unity'), name: 'chair', transforms });
    expect(fbx.files.map((f) => [basename(f.path), f.transformed])).toEqual([['Chair.fbx', true]]);
    const nodes = expectTexturedFbx(readFileSync(fbx.files[0]!.path));
    const vertices = child(
      child(
        nodes.find((n) => n.name === 'Objects'),
        'Geometry',
      ),
      'Vertices',
    )!.props[0] as number[];
    const ys = vertices.filter((_, i) => i % 3 === 1);
    expect(Math.min(...ys)).toBeCloseTo(0, 4);
    expect(Math.max(...ys)).toBeCloseTo(2, 4);

    const obj = await exportJob(deps, jobs.chair, {
      projectDir: makeProject('godot'),
      name: 'chair',
      transforms,
      format: 'obj',
    });
    expect(obj.files.map((f) => f.kind).sort()).toEqual(['mtl', 'obj', 'texture']);
    const text = readFileSync(obj.files.find((f) => f.kind === 'obj')!.path, 'utf8');
    const oy = [...text.matchAll(/^v \S+ (\S+) \S+$/gm)].map((m) => Number(m[1]));
    expect(Math.min(...oy)).toBeCloseTo(0, 4);
    expect(Math.max(...oy)).toBeCloseTo(2, 4);
    const mtl = readFileSync(obj.files.find((f) => f.kind === 'mtl')!.path, 'utf8');
    const texture = /^map_Kd (.+)$/m.exec(mtl)![1]!;
    expect(obj.files.some((f) => basename(f.path) === texture)).toBe(true);
    expect(readFileSync(join(obj.targetDir, texture)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('the GLB with transforms for Unity with glTFast: the root keeps a unit scale', async () => {
    const result = await exportJob(deps, jobs.chair, {
      projectDir: withGltfast(makeProject('unity')),
      name: 'chair',
      transforms: { scale: { factor: 100 } },
    });
    const doc = await readGlb(result.files[0]!.path);
    for (const node of doc.getRoot().listNodes()) expect(node.getScale()).toEqual([1, 1, 1]);
    expect(await validatorErrors(readFileSync(result.files[0]!.path))).toEqual([]);
  });
});

describe('planJob (for the export panel)', () => {
  it('says what exportJob writes and why the rest is not, writing nothing', async () => {
    const cases = [
      {
        job: () => jobs.chair,
        options: { name: 'chair', transforms: { scale: { height: 2 } } },
        project: () => makeProject('unity'),
      },
      {
        job: () => jobs.chair,
        options: { name: 'chair', format: 'obj' as const },
        project: () => makeProject('godot'),
      },
      {
        job: () => jobs.prompts,
        options: { name: 'hero', clips: [library()[1]!] },
        project: () => makeProject('unreal'),
      },
      { job: () => jobs.retopology, options: { name: 'low' }, project: () => tempDir() },
    ];
    for (const c of cases) {
      const projectDir = c.project();
      const plan = await planJob(deps, c.job(), { projectDir, ...c.options });
      expect(existsSync(plan.targetDir)).toBe(false);
      const result = await exportJob(deps, c.job(), { projectDir, ...c.options });
      expect(plan.targetDir).toBe(result.targetDir);
      expect(plan.write.map((w) => [w.name, w.kind, w.transformed])).toEqual(
        result.files.map((f) => [basename(f.path), f.kind, f.transformed]),
      );
      expect(plan.skip.map((s) => [s.kind, s.why])).toEqual(result.skipped.map((s) => [s.kind, s.why]));
    }
    const unity = await planJob(deps, jobs.chair, {
      projectDir: makeProject('unity'),
      name: 'chair',
      transforms: { scale: { height: 2 } },
    });
    expect(unity.write.map((w) => [w.name, w.transformed])).toEqual([['Chair.fbx', true]]);
    expect(unity.skip).toContainEqual({
      name: 'model.fbx',
      kind: 'fbx',
      why: 'it is made again from the transformed model, so that it matches the GLB',
    });
    expect(unity.skip).toContainEqual({
      name: 'model.obj',
      kind: 'obj',
      why: 'an untransformed copy would not match the transformed model',
    });
    expect(unity.skip.map((f) => f.name).sort()).toEqual([
      'mesh.mtl',
      'mesh.png',
      'model.fbx',
      'model.glb',
      'model.obj',
      'model.usdz',
      'model.zip',
    ]);
    const animated = await planJob(deps, jobs.prompts, {
      projectDir: makeProject('unreal'),
      name: 'hero',
      transforms: { scale: { factor: 2 } },
    });
    expect(animated).toMatchObject({
      format: 'glb',
      note: expect.stringContaining('FBX is not written with transforms for animated models'),
    });
    expect(animated.skip).toContainEqual(
      // (GLB clips: an FBX made from the transformed GLB; FBX clips, as the service delivers them: the files themselves.)
      expect.objectContaining({
        kind: 'fbx',
        why: expect.stringMatching(/would lose the rig and its clips|would need their rig rewritten/),
      }),
    );
    expect(animated.clips!.available.map((c) => c.name)).toEqual([...library(), ...prompts()]);
  });

  it("is named after the library entry when no name is given: a prompts job after its character's upload, a renamed job by its name", async () => {
    const { store } = host.bridge.services;
    // The prompts (labelled 'hero moves') are one library entry with their upload ('hero to animate').
    const prompts = await planJob(deps, jobs.prompts, { projectDir: makeProject('unity') });
    expect(basename(prompts.targetDir)).toBe('HeroToAnimate');
    const chair = await planJob(deps, jobs.chair, { projectDir: makeProject('godot') });
    expect(basename(chair.targetDir)).toBe('chair');
    store.jobs.rename(jobs.animation.id, 'Male Casual', Date.now());
    store.jobs.rename(jobs.chair.id, 'my red chair', Date.now());
    try {
      expect(basename((await planJob(deps, jobs.prompts, { projectDir: makeProject('unity') })).targetDir)).toBe(
        'MaleCasual',
      );
      const renamed = store.jobs.require(jobs.chair.id);
      expect(basename((await planJob(deps, renamed, { projectDir: makeProject('godot') })).targetDir)).toBe(
        'my_red_chair',
      );
    } finally {
      store.jobs.rename(jobs.animation.id, null, Date.now());
      store.jobs.rename(jobs.chair.id, null, Date.now());
    }
  });
});
