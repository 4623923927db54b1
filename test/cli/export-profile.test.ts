// `asset-studio export --profile NAME` (#31 item 5): a PBR job of the embedded engine into a Unity project with
// unity-mobile: the FBX of <Name>_LOD0..n meshes, its maps within 1024 px with the normal map and the
// metallic/smoothness map, the LODs and fixes said; an unknown profile refused with exit 2 naming the profiles.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

function unityProject(dir: string): string {
  mkdirSync(join(dir, 'Assets'), { recursive: true });
  mkdirSync(join(dir, 'ProjectSettings'));
  writeFileSync(join(dir, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 6000.0.23f1\n');
  return dir;
}

describe('asset-studio export --profile', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let jobId: string;

  beforeAll(async () => {
    dataDir = tempDataDir();
    env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const created = await runCli(
      [
        'create-3d',
        realFixture('images', 'chair.png'),
        '--texture-model',
        'pbr',
        '--wait',
        '--json',
        '--engine-speed',
        '2000',
      ],
      env,
    );
    expect(created.code).toBe(0);
    jobId = (JSON.parse(created.stdout) as { job: { id: string } }).job.id;
  });

  it('writes the LOD meshes and the PBR maps within the profile, and says what it made', async () => {
    const project = unityProject(join(dataDir, 'unity'));
    const r = await runCli(['export', jobId, '--project', project, '--profile', 'unity-mobile'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /profile unity-mobile:\n {4}LOD0: [\d,]+ triangles, error [\d.]+ %\n {4}LOD1: .*\n {4}LOD2: /,
    );
    expect(r.stderr).toMatch(/note: .*Chair_LOD0\.\.2: Unity builds the LOD Group on import/);
    const dir = join(project, 'Assets', 'AssetStudio', 'Chair');
    const names = readdirSync(dir).sort();
    expect(names).toEqual(expect.arrayContaining(['Chair.fbx', 'Chair_Normal.png', 'Chair_MetallicSmoothness.png']));
    for (const png of names.filter((n) => n.endsWith('.png'))) {
      const meta = await sharp(join(dir, png)).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(1024);
    }
  });

  it('answers the report in --json', async () => {
    const project = unityProject(join(dataDir, 'unity-json'));
    const r = await runCli(['export', jobId, '--project', project, '--profile', 'unity-desktop', '--json'], env);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { gameReady: { profile: string; levels: { triangles: number }[] } };
    expect(result.gameReady.profile).toBe('unity-desktop');
    const counts = result.gameReady.levels.map((l) => l.triangles);
    expect(counts[0]).toBeLessThanOrEqual(50_000);
    expect(counts[1]).toBeLessThan(counts[0]!);
  });

  it('refuses an unknown profile, naming the profiles there are', async () => {
    const r = await runCli(['export', jobId, '--project', unityProject(join(dataDir, 'u2')), '--profile', 'ps5'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unity-mobile/);
  });
});
