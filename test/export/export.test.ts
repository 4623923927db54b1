import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFbxBinary } from '../../main/engine/outputs/index.ts';
import { sceneBounds } from '../../main/export/bounds.ts';
import { exportAsset, type ExportOptions } from '../../main/export/export.ts';
import { readManifest } from '../../main/export/manifest.ts';
import type { GameEngine } from '../../main/export/presets.ts';
import { realFixture } from '../fixtures.ts';
import { generatedSources, makeProject, readGlb, SOURCE, tempDir, validatorErrors, withGltfast } from './helpers.ts';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function options(projectDir: string, extra: Partial<ExportOptions> = {}): ExportOptions {
  return { projectDir, name: 'oak chair', files: generatedSources().all, source: SOURCE, ...extra };
}

const LAYOUT: Record<GameEngine, { dir: string[]; files: string[] }> = {
  unity: { dir: ['Assets', 'AssetStudio', 'OakChair'], files: ['OakChair.assetstudio.json', 'OakChair.glb'] },
  unreal: { dir: ['Content', 'AssetStudio', 'OakChair'], files: ['OakChair.assetstudio.json', 'OakChair.glb'] },
  godot: { dir: ['assets', 'asset_studio', 'oak_chair'], files: ['oak_chair.assetstudio.json', 'oak_chair.glb'] },
};

describe('exportAsset: layouts and manifest', () => {
  it.each(['unity', 'unreal', 'godot'] as const)(
    'puts a generated GLB (its texture inside) into a %s project, and no loose texture no material uses',
    async (engine) => {
      const root = realpathSync(engine === 'unity' ? withGltfast(makeProject(engine)) : makeProject(engine)); // Unity: GLB with glTFast
      const result = await exportAsset(options(root));
      const target = join(root, ...LAYOUT[engine].dir);
      expect(result).toMatchObject({ engine, projectRoot: root, targetDir: target, replaced: false });
      expect(readdirSync(target).sort()).toEqual(LAYOUT[engine].files);
      expect(result.skipped.map((s) => [s.kind, s.why])).toEqual([
        ['obj', expect.stringContaining('one format per export')],
        ['mtl', 'an MTL goes with its OBJ, which is not written'],
        ['texture', 'no material of the model uses it (a GLB or FBX carries its textures inside)'],
      ]);
      expect(readdirSync(join(target, '..'))).toEqual([LAYOUT[engine].dir.at(-1)]); // no staging folder left
    },
  );

  it('writes a manifest that validates, with the right hashes and sizes, and no URL signatures', async () => {
    const sources = generatedSources();
    const root = withGltfast(makeProject('unity'));
    const result = await exportAsset({ ...options(root), files: sources.all });
    const manifest = await readManifest(result.manifestPath);
    expect(manifest).toMatchObject({
      format: 'asset-studio-export/1',
      name: 'OakChair',
      engine: 'unity',
      app: { name: 'asset-studio', version: VERSION },
      source: { sessionId: 'SESSION_abc123', jobId: 'job_1', kind: 'image_to_3d' },
    });
    expect(Date.parse(manifest.exportedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(manifest.files.map((f) => [f.path, f.kind, f.from, f.transformed])).toEqual([
      ['OakChair.glb', 'glb', 'model.glb', false],
    ]);
    for (const f of manifest.files) {
      const path = join(result.targetDir, f.path);
      expect(f.sha256).toBe(sha256(path));
      expect(f.size).toBe(readFileSync(path).length);
    }
    expect(manifest.files[0]!.sha256).toBe(sha256(sources.glb.path)); // untransformed: the same bytes
    expect(result.files.map((f) => f.path)).toEqual(manifest.files.map((f) => join(result.targetDir, f.path)));
    const text = readFileSync(result.manifestPath, 'utf8');
    expect(text).not.toContain('secret');
    expect(manifest.source.result).toMatchObject({ mesh_url_glb: 'https://files.example/m.glb' });
    expect(manifest.source.request).toMatchObject({
      image_url: expect.stringMatching(/^data:image\/png,… \(\d+ characters left out\)$/),
      pivot_point: [0, -0.5, 0],
    });
  });

  it('exports an OBJ set with its MTL and texture, renaming the references inside', async () => {
    const root = makeProject('unity');
    const { obj } = generatedSources();
    const result = await exportAsset({ ...options(root), files: obj });
    expect(result.files.map((f) => f.path.slice(result.targetDir.length + 1))).toEqual([
      'OakChair.obj',
      'OakChair.mtl',
      'OakChair_Model.png',
    ]);
    expect(readFileSync(join(result.targetDir, 'OakChair.obj'), 'utf8')).toMatch(/^mtllib OakChair\.mtl$/m);
    expect(readFileSync(join(result.targetDir, 'OakChair.mtl'), 'utf8')).toMatch(/^map_Kd OakChair_Model\.png$/m);
  });

  it('never leaves an OBJ naming a material library that is not written beside it', async () => {
    const [obj] = generatedSources().obj;
    const result = await exportAsset({ ...options(makeProject('godot')), files: [obj!] });
    expect(result.files.map((f) => f.kind)).toEqual(['obj']);
    const text = readFileSync(result.files[0]!.path, 'utf8');
    expect(text).not.toMatch(/^mtllib/m);
    expect(text).toMatch(/^v /m);
  });

  it('writes only the FBX for Unity (its default format), without the loose texture: the FBX embeds its own', async () => {
    const root = makeProject('unity');
    const sources = generatedSources();
    const fbx = join(sources.dir, 'fbx-blob');
    writeFileSync(fbx, buildFbxBinary('chair'));
    const result = await exportAsset({
      ...options(root),
      files: [...sources.all, { kind: 'fbx', path: fbx, name: 'model.fbx' }],
    });
    expect(readdirSync(result.targetDir).sort()).toEqual(['OakChair.assetstudio.json', 'OakChair.fbx']);
    expect(readFileSync(join(result.targetDir, 'OakChair.fbx')).equals(readFileSync(fbx))).toBe(true);
  });

  it('says so when the only model format is one the engine needs a package for (a GLB for Unity without glTFast)', async () => {
    const root = makeProject('unity');
    const { glb } = generatedSources();
    const result = await exportAsset({ ...options(root), files: [glb] });
    expect(readdirSync(result.targetDir).sort()).toEqual(['OakChair.assetstudio.json', 'OakChair.glb']);
    expect(result.note).toMatch(
      /^GLB is this result's only model format: Unity imports GLB only with the glTFast or UnityGLTF package/,
    );
    const withPackage = await exportAsset({ ...options(withGltfast(makeProject('unity'))), files: [glb] });
    expect(withPackage.note).toBeUndefined();
  });

  it('writes the GLB (or the format asked for) into a plain folder when no game project is found', async () => {
    const dir = realpathSync(tempDir());
    const result = await exportAsset(options(dir));
    expect(result).toMatchObject({ engine: 'folder', targetDir: join(dir, 'oak_chair') });
    expect(readdirSync(result.targetDir).sort()).toEqual(['oak_chair.assetstudio.json', 'oak_chair.glb']);
    const obj = await exportAsset({ ...options(dir), name: 'oak chair obj', format: 'obj' });
    expect(readdirSync(obj.targetDir).sort()).toEqual([
      'oak_chair_obj.assetstudio.json',
      'oak_chair_obj.mtl',
      'oak_chair_obj.obj',
      'oak_chair_obj_model.png',
    ]);
    expect(readFileSync(join(obj.targetDir, 'oak_chair_obj.mtl'), 'utf8')).toMatch(
      /^map_Kd oak_chair_obj_model\.png$/m,
    );
  });

  it('puts the asset in the folder the user picked inside the content folder, else in the preset folder', async () => {
    const root = realpathSync(makeProject('unity'));
    mkdirSync(join(root, 'Assets', 'Props'));
    expect((await exportAsset(options(join(root, 'Assets', 'Props')))).targetDir).toBe(
      join(root, 'Assets', 'Props', 'OakChair'),
    );
    expect((await exportAsset(options(join(root, 'ProjectSettings')))).targetDir).toBe(
      join(root, 'Assets', 'AssetStudio', 'OakChair'),
    );
  });

  it('creates a folder that does not exist yet: a new plain folder, or a new folder inside a project', async () => {
    const dir = realpathSync(tempDir());
    const fresh = join(dir, 'exports', 'chairs');
    const result = await exportAsset(options(fresh));
    expect(result).toMatchObject({ engine: 'folder', projectRoot: fresh, targetDir: join(fresh, 'oak_chair') });
    expect(readdirSync(fresh)).toEqual(['oak_chair']);
    const root = realpathSync(makeProject('unity'));
    const inside = join(root, 'Assets', 'Props', 'Chairs');
    expect(await exportAsset(options(inside))).toMatchObject({ engine: 'unity', targetDir: join(inside, 'OakChair') });
  });

  it('exports real fixtures: Fox.glb transformed for Unreal, BoxTextured.glb as it is for Godot', async () => {
    const unreal = makeProject('unreal');
    const fox = await exportAsset({
      ...options(unreal),
      name: 'Fox',
      files: [{ kind: 'glb', path: realFixture('glb', 'Fox.glb') }],
      transforms: { scale: { height: 0.5 }, pivot: 'bottom-center' },
    });
    const written = fox.files[0]!;
    expect(written).toMatchObject({ path: join(fox.targetDir, 'Fox.glb'), from: 'Fox.glb', transformed: true });
    expect(fox.bbox!.size[1]).toBeCloseTo(0.5, 6);
    expect(fox.bbox!.min[1]).toBeCloseTo(0, 6);
    expect(await validatorErrors(readFileSync(written.path))).toEqual([]);
    const measured = sceneBounds((await readGlb(written.path)).getRoot().getDefaultScene()!)!;
    expect(measured.size[1]).toBeCloseTo(0.5, 5);
    const manifest = await readManifest(fox.manifestPath);
    expect(manifest).toMatchObject({
      engine: 'unreal',
      transforms: { scale: { height: 0.5 }, pivot: 'bottom-center' },
      files: [{ sha256: sha256(written.path), transformed: true }],
    });
    expect(manifest.bbox!.size[1]).toBeCloseTo(0.5, 6);

    const godot = await exportAsset({
      ...options(makeProject('godot')),
      name: 'BoxTextured',
      files: [{ kind: 'glb', path: realFixture('glb', 'BoxTextured.glb') }],
    });
    expect(godot.files[0]!.path).toMatch(/assets\/asset_studio\/box_textured\/box_textured\.glb$/);
    expect(godot.files[0]!.sha256).toBe(sha256(realFixture('glb', 'BoxTextured.glb')));
    expect(godot.bbox).toBeUndefined();
  });
});

describe('exportAsset: replacing', () => {
  it('refuses an existing target without overwrite, naming a free name, and leaves it untouched', async () => {
    const root = makeProject('unity');
    const first = await exportAsset(options(root));
    const before = readFileSync(first.manifestPath, 'utf8');
    const refused = exportAsset(options(root, { name: 'Oak Chair' })); // the same folder once styled
    await expect(refused).rejects.toMatchObject({
      code: 'target-exists',
      file: first.targetDir,
      fix: expect.stringContaining('OakChair_2'),
    });
    expect(readFileSync(first.manifestPath, 'utf8')).toBe(before);
    expect(readdirSync(join(first.targetDir, '..'))).toEqual(['OakChair']);
  });

  it('replaces with overwrite, keeping the engine files (Unity .meta) and what the user added', async () => {
    const root = withGltfast(makeProject('unity'));
    const first = await exportAsset(options(root));
    writeFileSync(join(first.targetDir, 'OakChair.glb.meta'), 'guid: 0123456789abcdef\n');
    writeFileSync(join(first.targetDir, 'OakChair.assetstudio.json.meta'), 'guid: fedcba\n');
    mkdirSync(join(first.targetDir, 'Materials'));
    writeFileSync(join(first.targetDir, 'Materials', 'Oak.mat'), 'material');

    const glbOnly = generatedSources().glb;
    const second = await exportAsset(
      options(root, { files: [glbOnly], overwrite: true, transforms: { scale: { factor: 2 } } }),
    );
    expect(second).toMatchObject({ targetDir: first.targetDir, replaced: true });
    expect(second.kept.sort()).toEqual(['Materials', 'OakChair.assetstudio.json.meta', 'OakChair.glb.meta']);
    // The texture of the first export is gone: the previous manifest listed it and this export did not write it.
    expect(readdirSync(second.targetDir).sort()).toEqual([
      'Materials',
      'OakChair.assetstudio.json',
      'OakChair.assetstudio.json.meta',
      'OakChair.glb',
      'OakChair.glb.meta',
    ]);
    expect(readFileSync(join(second.targetDir, 'OakChair.glb.meta'), 'utf8')).toBe('guid: 0123456789abcdef\n');
    expect(readFileSync(join(second.targetDir, 'Materials', 'Oak.mat'), 'utf8')).toBe('material');
    expect((await readManifest(second.manifestPath)).files.map((f) => [f.path, f.transformed])).toEqual([
      ['OakChair.glb', true],
    ]);
    expect(readdirSync(join(second.targetDir, '..'))).toEqual(['OakChair']); // nothing aside, nothing staged
  });
});

describe('exportAsset: refusals', () => {
  it.each(['../evil', '/etc/evil', '..\\evil', '..'])('refuses the name %j and writes nothing', async (name) => {
    const root = makeProject('godot');
    await expect(exportAsset(options(root, { name }))).rejects.toMatchObject({ code: 'bad-name' });
    expect(readdirSync(root)).toEqual(['project.godot']);
  });

  it('refuses a preset folder that is a link out of the project, before writing anything', async () => {
    const root = makeProject('unity');
    const outside = tempDir();
    symlinkSync(outside, join(root, 'Assets', 'AssetStudio'));
    await expect(exportAsset(options(root))).rejects.toMatchObject({
      code: 'outside-project',
      message: expect.stringContaining(realpathSync(outside)),
    });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses a target folder that is a link, even with overwrite', async () => {
    const root = makeProject('unity');
    mkdirSync(join(root, 'Assets', 'AssetStudio'));
    mkdirSync(join(root, 'Assets', 'Elsewhere'));
    symlinkSync(join(root, 'Assets', 'Elsewhere'), join(root, 'Assets', 'AssetStudio', 'OakChair'));
    await expect(exportAsset(options(root, { overwrite: true }))).rejects.toMatchObject({ code: 'outside-project' });
  });

  it('refuses missing sources, bad transforms, and files the engine cannot use', async () => {
    const root = makeProject('godot');
    const missing = { kind: 'glb' as const, path: join(tempDir(), 'gone.glb') };
    await expect(exportAsset(options(root, { files: [missing] }))).rejects.toMatchObject({
      code: 'source-missing',
      file: missing.path,
    });
    await expect(exportAsset(options(root, { transforms: { scale: { factor: -1 } } }))).rejects.toMatchObject({
      code: 'bad-input',
      message: expect.stringContaining('transforms: scale'),
    });
    const usdz = { kind: 'usdz' as const, path: missing.path };
    await expect(exportAsset(options(root, { files: [usdz] }))).rejects.toMatchObject({ code: 'nothing-to-export' });
    const { obj } = generatedSources();
    await expect(exportAsset(options(root, { files: obj, transforms: { pivot: 'center' } }))).rejects.toMatchObject({
      code: 'nothing-to-export',
      why: 'has no GLB, and the transforms need one',
    });
    await expect(exportAsset(options(root, { source: { ...SOURCE, sessionId: '' } }))).rejects.toMatchObject({
      code: 'bad-input',
      file: 'source',
    });
    expect(existsSync(join(root, 'assets', 'asset_studio', 'oak_chair'))).toBe(false);
  });
});

describe('exportAsset: a new folder that cannot be created', () => {
  // A recursive mkdir under /proc fails with ENOENT, retries the parent (which exists), and never ends.
  it.skipIf(!existsSync('/proc/self'))('fails with the folder named (under /proc), instead of hanging', async () => {
    await expect(exportAsset(options('/proc/asset-studio-cannot-write-here/deeper'))).rejects.toMatchObject({
      code: 'io',
      file: '/proc/asset-studio-cannot-write-here',
      why: expect.stringMatching(/^creating the folder failed/),
    });
  });
});

describe('exportAsset: leftovers of dead exports', () => {
  const DEAD_PID = 2 ** 30; // above any pid_max: no such process

  it('removes stale staging folders and deletes a stale old copy when its target exists', async () => {
    const root = makeProject('unity');
    const parent = join(root, 'Assets', 'AssetStudio');
    mkdirSync(join(parent, `.assetstudio-staging-${DEAD_PID}-abc123`), { recursive: true });
    writeFileSync(join(parent, `.assetstudio-staging-${DEAD_PID}-abc123`, 'OakChair.glb'), 'partial');
    mkdirSync(join(parent, 'Table'));
    mkdirSync(join(parent, `.assetstudio-old-${DEAD_PID}-0badf00d-Table`));
    mkdirSync(join(parent, `.assetstudio-staging-${process.pid}-live00`)); // a live export's: left alone
    await exportAsset(options(root));
    expect(readdirSync(parent).sort()).toEqual([`.assetstudio-staging-${process.pid}-live00`, 'OakChair', 'Table']);
  });

  it('puts back a folder that a replacement had moved aside when it died before the new one was in place', async () => {
    const root = makeProject('unity');
    const parent = join(root, 'Assets', 'AssetStudio');
    const aside = join(parent, `.assetstudio-old-${DEAD_PID}-0badf00d-OakChair`);
    mkdirSync(aside, { recursive: true });
    writeFileSync(join(aside, 'OakChair.glb'), 'the previous export');
    await expect(exportAsset(options(root))).rejects.toMatchObject({ code: 'target-exists' });
    expect(readFileSync(join(parent, 'OakChair', 'OakChair.glb'), 'utf8')).toBe('the previous export');
    expect(readdirSync(parent)).toEqual(['OakChair']);
  });
});
