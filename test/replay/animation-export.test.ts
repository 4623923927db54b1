// Exporting a mesh-animation job as the real service delivers it (issue #22 section 1): its prompt's clip and
// its animation are FBX files behind signed URLs (the replay serves Male_Casual.fbx for them), never GLB.
// Unity without glTFast and Unreal get one FBX per clip, the service's bytes as they are; a plain folder
// gets one GLB made from them, every clip an animation named after its prompt. (Taken for GLB, as they were,
// these files made every export fail: "Invalid glTF 2.0 binary".)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../cli/run-cli.ts';
import { clipNames, readValidGlb } from '../export/helpers.ts';
import { cli, uploadedCharacter } from './helpers.ts';
import { type ReplayServer, startReplay } from './replay-server.ts';

let replay: ReplayServer;
let dataDir: string;
let jobId: string;
beforeAll(async () => {
  replay = await startReplay();
  dataDir = tempDataDir();
  const code = await uploadedCharacter(replay, dataDir);
  const animated = await cli(replay, ['animate-text', code, 'a person waves', '--json'], dataDir);
  expect(animated.code, animated.stderr).toBe(0);
  jobId = (JSON.parse(animated.stdout) as { jobId: string }).jobId;
  expect((await cli(replay, ['wait', jobId, '--timeout', '30'], dataDir)).code).toBe(0);
  expect((await cli(replay, ['pull', jobId], dataDir)).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await replay?.close();
});

function unity(root: string): string {
  mkdirSync(join(root, 'Assets'), { recursive: true });
  mkdirSync(join(root, 'ProjectSettings'), { recursive: true });
  writeFileSync(join(root, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 6000.0.23f1\n');
  return root;
}

describe('an animation job of the service (FBX behind signed URLs) exported', () => {
  // #31 item 5: Unity gets the model once and each clip as <Model>@<clip>.fbx (Unity's convention: the clip finds
  // the model's rig), not a full mesh per clip.
  it('to Unity without glTFast: one model FBX and the prompt as <Model>@<clip>.fbx, never a GLB', async () => {
    const project = unity(join(dataDir, 'unity'));
    const r = await cli(replay, ['export', jobId, '--project', project, '--json'], dataDir);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { targetDir: string; clips: { written: string[] }; note?: string };
    expect(result.clips.written).toEqual(['a person waves']);
    expect(result.note).toMatch(/One model FBX and one animation FBX per clip \(1\) named <Model>@<clip>\.fbx/);
    const files = readdirSync(result.targetDir)
      .filter((n) => /\.(fbx|glb)$/.test(n))
      .sort();
    expect(files).toHaveLength(2);
    const [clip, model] = files.sort((a, b) => Number(a.includes('@')) - Number(b.includes('@'))).reverse();
    expect(clip).toMatch(/@APersonWaves\.fbx$/);
    expect(model).toMatch(/\.fbx$/);
    expect(clip!.startsWith(model!.replace(/\.fbx$/, '@'))).toBe(true);
  });

  it('with --format fbx to a plain folder, and to a plain folder as one GLB made from the FBX clip', async () => {
    const fbx = await cli(
      replay,
      ['export', jobId, '--project', join(dataDir, 'fbx'), '--engine', 'folder', '--format', 'fbx'],
      dataDir,
    );
    expect(fbx.code, fbx.stderr).toBe(0);
    const r = await cli(
      replay,
      ['export', jobId, '--project', join(dataDir, 'glb'), '--engine', 'folder', '--json'],
      dataDir,
    );
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { targetDir: string; clips: { written: string[] } };
    expect(result.clips.written).toEqual(['a person waves']);
    const glb = readdirSync(result.targetDir).find((n) => n.endsWith('.glb'));
    expect(glb).toBeDefined();
    const bytes = readFileSync(join(result.targetDir, glb!));
    const doc = await readValidGlb(bytes);
    expect(clipNames(doc)).toEqual(['a person waves']);
    expect(doc.getRoot().listSkins()[0]!.listJoints().length).toBeGreaterThanOrEqual(42);
    expect(existsSync(join(result.targetDir, 'a person waves.fbx'))).toBe(false);
  });
});
