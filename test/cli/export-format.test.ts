// `asset-studio export --format glb|fbx|obj` (#16 item 4): one mesh format per export, the engine's default
// without the option (Unity FBX, or GLB with glTFast in Packages/manifest.json; Unreal FBX; Godot GLB), and a
// format the engine cannot import, or an unknown one, refused with exit 2 naming the choices, writing nothing.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

function unityProject(dir: string, gltfast: boolean): string {
  mkdirSync(join(dir, 'Assets'), { recursive: true });
  mkdirSync(join(dir, 'ProjectSettings'));
  writeFileSync(join(dir, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 6000.0.23f1\n');
  mkdirSync(join(dir, 'Packages'));
  const dependencies = { 'com.unity.ugui': '2.0.0', ...(gltfast && { 'com.unity.cloud.gltfast': '6.8.0' }) };
  writeFileSync(join(dir, 'Packages', 'manifest.json'), JSON.stringify({ dependencies }));
  return dir;
}

describe('asset-studio export --format', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let jobId: string;
  const exportJson = async (args: string[]) => {
    const r = await runCli(['export', jobId, '--json', ...args], env);
    // (Into a game project, the default pivot is said: test/cli/export-options.test.ts.)
    expect([r.code, r.stderr.replace(/^note: pivot at the bottom centre, the default for \w+: .*\n/, '')]).toEqual([
      0,
      '',
    ]);
    const result = JSON.parse(r.stdout) as { engine: string; targetDir: string; files: { path: string }[] };
    return { ...result, names: readdirSync(result.targetDir).sort() };
  };

  beforeAll(async () => {
    dataDir = tempDataDir();
    env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const created = await runCli(
      ['create-3d', realFixture('images', 'chair.png'), '--wait', '--json', '--engine-speed', '2000'],
      env,
    );
    expect(created.code).toBe(0);
    jobId = (JSON.parse(created.stdout) as { job: { id: string } }).job.id;
  });

  it('writes FBX alone into a Unity project without glTFast, GLB alone with it', async () => {
    const plain = await exportJson(['--project', unityProject(join(dataDir, 'unity-plain'), false)]);
    expect(plain.engine).toBe('unity');
    expect(plain.names.filter((n) => /\.(glb|fbx|obj)$/.test(n))).toEqual(['Chair.fbx']);
    const gltfast = await exportJson(['--project', unityProject(join(dataDir, 'unity-gltfast'), true)]);
    expect(gltfast.names.filter((n) => /\.(glb|fbx|obj)$/.test(n))).toEqual(['Chair.glb']);
  });

  it('writes the format asked for: OBJ with its MTL for Godot', async () => {
    const godot = join(dataDir, 'godot');
    mkdirSync(godot);
    writeFileSync(join(godot, 'project.godot'), 'config_version=5\n');
    const obj = await exportJson(['--project', godot, '--format', 'obj']);
    expect(obj.names.filter((n) => /\.(glb|fbx|obj|mtl)$/.test(n))).toEqual(['chair.mtl', 'chair.obj']);
  });

  it('refuses GLB for Unity without a glTF package (exit 2, naming the choices) and writes nothing', async () => {
    const project = unityProject(join(dataDir, 'unity-refused'), false);
    const r = await runCli(['export', jobId, '--project', project, '--format', 'glb'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'GLB for Unity: is refused: Unity imports GLB only with the glTFast or UnityGLTF package',
    );
    expect(r.stderr).toContain('Choose FBX or OBJ');
    expect(existsSync(join(project, 'Assets', 'AssetStudio'))).toBe(false);
  });

  it('refuses a format it does not know (exit 2), naming glb, fbx, obj', async () => {
    const r = await runCli(['export', jobId, '--project', join(dataDir, 'folder'), '--format', 'usdz'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--format must be one of glb, fbx, obj (got "usdz")');
    expect(existsSync(join(dataDir, 'folder'))).toBe(false);
  });

  it("warns when a transform would be done twice by Unreal's importer", async () => {
    const unreal = join(dataDir, 'unreal');
    mkdirSync(join(unreal, 'Content'), { recursive: true });
    writeFileSync(join(unreal, 'Game.uproject'), '{}');
    const r = await runCli(['export', jobId, '--project', unreal, '--up-axis', 'y-to-z'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'warning: Unreal\'s importer already stands a Y-up file up in its Z-up world, so "Z up" would make the model lie on its side.',
    );
  });
});
