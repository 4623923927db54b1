// wait and every --wait download the outputs through the one pull use case (main/app/pull-outputs.ts): only
// the formats turned on in Settings (GLB and the job's main result always), as pull and the app do. Before,
// --wait passed no formats and downloaded every format, even those turned off.
import { describe, expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../main/store/database.ts';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

/** The environment of a CLI run on a new data folder whose Settings turn on only GLB and images. */
function onlyGlbAndImages(): NodeJS.ProcessEnv {
  const dataDir = tempDataDir();
  const store = openDatabase(databasePath(dataDir));
  store.settings.set('outputFormats', ['glb', 'image']);
  store.close();
  return cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
}

/** `create-3d chair.png` on the embedded engine, with `flags`. */
function create3d(env: NodeJS.ProcessEnv, ...flags: string[]) {
  return runCli(['create-3d', realFixture('images', 'chair.png'), ...flags, '--json', '--engine-speed', '500'], env);
}

/** The kinds of the cache's entries: GLB among them, and no OBJ, FBX, USDZ or zip. */
async function expectOnlyGlbAndImagesCached(env: NodeJS.ProcessEnv): Promise<void> {
  const listed = await runCli(['cache', 'ls', '--json'], env);
  expect(listed.code).toBe(0);
  const kinds = (JSON.parse(listed.stdout) as { entries: { kind: string }[] }).entries.map((e) => e.kind);
  expect(kinds).toContain('glb');
  expect(kinds.filter((k) => /obj|fbx|usdz|zip/.test(k))).toEqual([]);
}

describe('--wait and wait download the formats turned on in Settings', () => {
  it('create-3d --wait with only GLB and images on caches no OBJ, FBX, USDZ or zip', async () => {
    const env = onlyGlbAndImages();
    const created = await create3d(env, '--wait');
    expect(created.stderr).not.toMatch(/error/);
    expect(created.code).toBe(0);
    await expectOnlyGlbAndImagesCached(env);
  });

  it('wait <id> with only GLB and images on caches no OBJ, FBX, USDZ or zip', async () => {
    const env = onlyGlbAndImages();
    const created = await create3d(env);
    expect(created.code).toBe(0);
    const { jobId } = JSON.parse(created.stdout) as { jobId: string };
    const waited = await runCli(['wait', jobId, '--json', '--engine-speed', '500'], env);
    expect(waited.stderr).not.toMatch(/error/);
    expect(waited.code).toBe(0);
    await expectOnlyGlbAndImagesCached(env);
  });
});
