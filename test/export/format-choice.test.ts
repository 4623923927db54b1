// One mesh format per export (#16 item 4): Unity FBX, or GLB when glTFast/UnityGLTF is in Packages/manifest.json;
// Unreal FBX; Godot and a plain folder GLB; a format the engine cannot import or the result does not have is
// refused (bad-format, exit 2 in the CLI). And the engine-aware words of item 5.
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFbxBinary } from '../../main/engine/outputs/index.ts';
import { detectProject } from '../../main/export/detect.ts';
import { ExportError } from '../../main/export/errors.ts';
import { exportAsset, type SourceFile } from '../../main/export/export.ts';
import { chooseFormat } from '../../main/export/presets.ts';
import { doubleConversion, ENGINE_AXES, formatNeeds } from '../../shared/export-options.ts';
import { mappingOf } from '../../shared/errors.ts';
import { generatedSources, makeProject, SOURCE, withGltfast } from './helpers.ts';

function unityWith(dependencies: Record<string, string> | string): string {
  const root = makeProject('unity');
  mkdirSync(join(root, 'Packages'));
  writeFileSync(
    join(root, 'Packages', 'manifest.json'),
    typeof dependencies === 'string' ? dependencies : JSON.stringify({ dependencies }),
  );
  return root;
}

/** The generated GLB, OBJ set and texture, and an FBX: every format a finished image-to-3D job has. */
function allFormats(): SourceFile[] {
  const sources = generatedSources();
  const fbx = join(sources.dir, 'fbx-blob');
  writeFileSync(fbx, buildFbxBinary('chair'));
  return [...sources.all, { kind: 'fbx', path: fbx, name: 'model.fbx' }];
}

describe('detect: the glTF package of a Unity project', () => {
  it('finds glTFast or UnityGLTF in Packages/manifest.json, else null', async () => {
    expect((await detectProject(withGltfast(makeProject('unity')))).gltfPackage).toBe('glTFast');
    expect((await detectProject(unityWith({ 'org.khronos.unitygltf': '2.14.0' }))).gltfPackage).toBe('UnityGLTF');
    expect((await detectProject(unityWith({ 'com.unity.ugui': '2.0.0' }))).gltfPackage).toBeNull();
    expect((await detectProject(unityWith('{ not json'))).gltfPackage).toBeNull();
    expect((await detectProject(makeProject('unity'))).gltfPackage).toBeNull();
    expect((await detectProject(makeProject('godot'))).gltfPackage).toBeUndefined();
  });
});

describe('chooseFormat', () => {
  const all = ['glb', 'fbx', 'obj', 'mtl', 'texture'] as const;
  it('defaults per engine: Unity FBX (GLB with glTFast), Unreal FBX, Godot and a folder GLB', () => {
    expect(chooseFormat({ engine: 'unity', gltfPackage: null }, all)).toEqual({ format: 'fbx' });
    expect(chooseFormat({ engine: 'unity', gltfPackage: 'glTFast' }, all)).toEqual({ format: 'glb' });
    expect(chooseFormat({ engine: 'unreal' }, all)).toEqual({ format: 'fbx' });
    expect(chooseFormat({ engine: 'godot' }, all)).toEqual({ format: 'glb' });
    expect(chooseFormat({ engine: 'folder' }, all)).toEqual({ format: 'glb' });
  });

  it('falls back to a format the engine imports, and says so', () => {
    expect(chooseFormat({ engine: 'unity', gltfPackage: null }, ['glb', 'obj', 'mtl'])).toEqual({
      format: 'obj',
      note: 'Unity gets OBJ: this result has no FBX',
    });
    const onlyGlb = chooseFormat({ engine: 'unity', gltfPackage: null }, ['glb']);
    expect(onlyGlb).toEqual({
      format: 'glb',
      note: expect.stringMatching(
        /^GLB is this result's only model format: Unity imports GLB only with the glTFast or UnityGLTF package/,
      ),
    });
    expect(chooseFormat({ engine: 'godot' }, ['texture'])).toEqual({ format: undefined });
  });

  it('refuses a format the engine cannot import or the result does not have, naming the choices (exit 2)', () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        expect(error).toBeInstanceOf(ExportError);
        return error as ExportError;
      }
      throw new Error('not refused');
    };
    const glb = refused(() => chooseFormat({ engine: 'unity', gltfPackage: null }, all, 'glb'));
    expect(glb.code).toBe('bad-format');
    expect(glb.message).toBe(
      'GLB for Unity: is refused: Unity imports GLB only with the glTFast or UnityGLTF package, and Packages/manifest.json lists neither (add com.unity.cloud.gltfast, or choose FBX or OBJ). Choose FBX or OBJ',
    );
    expect(refused(() => chooseFormat({ engine: 'godot' }, ['glb', 'texture'], 'fbx')).message).toBe(
      "FBX for Godot: is not among this result's files (it has GLB). Choose GLB",
    );
    expect(mappingOf('bad-format').exitCode).toBe(2);
    expect(chooseFormat({ engine: 'unity', gltfPackage: 'UnityGLTF' }, all, 'glb')).toEqual({ format: 'glb' });
  });
});

describe('exportAsset: one mesh format per export', () => {
  it('writes FBX alone into a Unity project without glTFast, GLB alone with it: the model is imported once', async () => {
    const files = allFormats();
    const plain = realpathSync(makeProject('unity'));
    const fbx = await exportAsset({ projectDir: plain, name: 'robot', files, source: SOURCE });
    expect(readdirSync(fbx.targetDir).sort()).toEqual(['Robot.assetstudio.json', 'Robot.fbx']);
    expect(fbx.skipped.map((s) => [s.kind, s.why])).toEqual([
      ['glb', 'Unity gets FBX here: one format per export, so the model is imported once'],
      ['obj', 'Unity gets FBX here: one format per export, so the model is imported once'],
      ['mtl', 'an MTL goes with its OBJ, which is not written'],
      ['texture', 'no material of the model uses it (a GLB or FBX carries its textures inside)'],
    ]);
    const gltfast = realpathSync(withGltfast(makeProject('unity')));
    const glb = await exportAsset({ projectDir: gltfast, name: 'robot', files, source: SOURCE });
    expect(readdirSync(glb.targetDir).sort()).toEqual(['Robot.assetstudio.json', 'Robot.glb']);
  });

  it('writes the format asked for, and refuses GLB for Unity without a glTF package, writing nothing', async () => {
    const files = allFormats();
    const root = realpathSync(makeProject('unity'));
    const obj = await exportAsset({ projectDir: root, name: 'robot', files, source: SOURCE, format: 'obj' });
    expect(readdirSync(obj.targetDir).sort()).toEqual([
      'Robot.assetstudio.json',
      'Robot.mtl',
      'Robot.obj',
      'Robot_Model.png',
    ]);
    await expect(
      exportAsset({ projectDir: root, name: 'robot2', files, source: SOURCE, format: 'glb' }),
    ).rejects.toMatchObject({ code: 'bad-format' });
    expect(readdirSync(join(root, 'Assets', 'AssetStudio'))).toEqual(['Robot']);
    const unreal = await exportAsset({ projectDir: makeProject('unreal'), name: 'robot', files, source: SOURCE });
    expect(unreal.files.map((f) => f.kind).sort()).toEqual(['fbx']);
  });
});

describe('engine words (item 5)', () => {
  it('says what each engine needs and its axes, Unreal in its own axes', () => {
    expect(formatNeeds({ engine: 'unity', gltfPackage: null })).toBe(
      'Unity imports FBX natively; GLB needs glTFast or UnityGLTF (not found in Packages/manifest.json).',
    );
    expect(formatNeeds({ engine: 'unity', gltfPackage: 'glTFast' })).toContain(
      '(found: glTFast in Packages/manifest.json)',
    );
    expect(ENGINE_AXES.unreal).toBe(
      "Unreal: X forward, Z up, centimetres — the importer converts from the file's metres/Y-up.",
    );
  });

  it('warns of a conversion the importer does itself: Z up anywhere, ×100 for Unreal', () => {
    expect(doubleConversion('unreal', { upAxis: 'y-to-z', scale: { factor: 100 } })).toBe(
      "Unreal's importer already stands a Y-up file up in its Z-up world, so \"Z up\" would make the model lie on its side; Unreal's importer already turns the file's metres into centimetres, so ×100 makes the model 100 times too large.",
    );
    expect(doubleConversion('unity', { upAxis: 'y-to-z' })).toMatch(
      /^Unity's importer already stands a Y-up file up, so "Z up"/,
    );
    expect(doubleConversion('unreal', { scale: { height: 1.8 }, pivot: 'bottom-center' })).toBeUndefined();
    expect(doubleConversion('folder', { upAxis: 'y-to-z' })).toBeUndefined();
  });
});
