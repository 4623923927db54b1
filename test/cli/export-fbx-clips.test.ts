// `asset-studio export --format fbx` on an animation job whose clips are FBX, as the service delivers them (the
// embedded engine set to do the same, ASSET_STUDIO_ENGINE_ANIMATION_FILES=fbx): one FBX per prompt, each the
// character with its take named after the prompt; without --clips the user's prompts, as in the app.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANIMATION_FILES_ENV } from '../../main/engine/sessions/animation.ts';
import { readFbxNodes } from '../export/fbx-nodes.ts';
import { validatorErrors } from '../export/helpers.ts';
import { realFixture } from '../fixtures.ts';
import { runInProcess } from './run-in-process.ts';
import { cleanEnv, tempDataDir } from './run-cli.ts';

/** The takes (AnimationStack names) of an FBX file. */
function takes(path: string): string[] {
  return readFbxNodes(readFileSync(path))
    .find((n) => n.name === 'Objects')!
    .children.filter((n) => n.name === 'AnimationStack')
    .map((n) => String(n.props[1]).split('\0')[0]!);
}

const previous = process.env[ANIMATION_FILES_ENV];
afterAll(() => {
  if (previous === undefined) delete process.env[ANIMATION_FILES_ENV];
  else process.env[ANIMATION_FILES_ENV] = previous;
});

describe('asset-studio export of an FBX animation job', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let promptsJob: string;
  const speed = ['--engine-speed', '2000'];

  beforeAll(async () => {
    process.env[ANIMATION_FILES_ENV] = 'fbx'; // the engine runs in this process
    dataDir = tempDataDir();
    env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const upload = await runInProcess(
      ['upload', realFixture('fbx', 'Male_Casual.fbx'), '--wait', '--json', ...speed],
      env,
    );
    expect(upload.code, upload.stderr).toBe(0);
    const session = (JSON.parse(upload.stdout) as { job: { remoteId: string } }).job.remoteId;
    const prompts = await runInProcess(['animate-text', session, 'walk', 'wave', '--wait', '--json', ...speed], env);
    expect(prompts.code, prompts.stderr).toBe(0);
    promptsJob = (JSON.parse(prompts.stdout) as { job: { id: string } }).job.id;
    const pulled = await runInProcess(['pull', promptsJob, ...speed], env);
    expect(pulled.code, pulled.stderr).toBe(0);
  }, 300_000);

  it('--format fbx writes one FBX per prompt, each with its take named after the prompt', async () => {
    const r = await runInProcess(
      ['export', promptsJob, '--project', join(dataDir, 'out'), '--engine', 'folder', '--format', 'fbx', '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { targetDir: string; clips: { written: string[] }; note?: string };
    expect(result.clips.written).toEqual(['walk', 'wave']);
    expect(result.note).toMatch(/One FBX per clip/);
    const files = readdirSync(result.targetDir).filter((n) => n.endsWith('.fbx'));
    expect(files).toHaveLength(2);
    // Each file named after its clip, holding that clip as its one take.
    for (const take of ['walk', 'wave']) {
      const file = files.find((n) => n.toLowerCase().endsWith(`_${take}.fbx`));
      expect(file, files.join(', ')).toBeDefined();
      expect(takes(join(result.targetDir, file!))).toEqual([take]);
    }
    expect(readdirSync(result.targetDir).some((n) => n.endsWith('.glb'))).toBe(false);
  });

  it('a plain folder gets one GLB made from the FBX clips, every prompt an animation named after it', async () => {
    const r = await runInProcess(
      ['export', promptsJob, '--project', join(dataDir, 'glb'), '--engine', 'folder', '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as {
      targetDir: string;
      clips: { written: string[] };
      files: { path: string }[];
    };
    expect(result.clips.written).toEqual(['walk', 'wave']);
    const glbs = readdirSync(result.targetDir).filter((n) => n.endsWith('.glb'));
    expect(glbs).toHaveLength(1);
    expect(readdirSync(result.targetDir).some((n) => n.endsWith('.fbx'))).toBe(false);
    const doc = await new NodeIO().readBinary(readFileSync(join(result.targetDir, glbs[0]!)));
    expect(
      doc
        .getRoot()
        .listAnimations()
        .map((a) => a.getName()),
    ).toEqual(['walk', 'wave']);
    expect(doc.getRoot().listSkins()[0]!.listJoints().length).toBeGreaterThanOrEqual(42);
    for (const a of doc.getRoot().listAnimations()) expect(a.listChannels().length).toBeGreaterThan(10);
    expect(await validatorErrors(readFileSync(join(result.targetDir, glbs[0]!)))).toEqual([]);
  });

  it('with transforms, FBX is refused for these clips (exit 2), saying why and to choose GLB', async () => {
    const r = await runInProcess(
      [
        'export',
        promptsJob,
        '--project',
        join(dataDir, 'tall'),
        '--engine',
        'folder',
        '--format',
        'fbx',
        '--scale-height',
        '2',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/transforms/);
    expect(r.stderr).toMatch(/GLB/);
  });
});
