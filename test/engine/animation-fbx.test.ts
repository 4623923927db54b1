// The service delivers an uploaded character's animations as FBX (each prompt's `mesh_url`, the library clips,
// the session's `animation_url`); the embedded engine does too with `animationFiles: 'fbx'`. Its FBX is the
// character (mesh, skin, every bone) with each clip a take named after its prompt or label: read back here with
// the project's own FBX reading (Babylon's loader: read-fbx.ts; shared/fbx-bones.ts) and its node records.
// Blender's import of it: test/blender/animation-fbx.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbxBones } from '../../shared/fbx-bones.ts';
import { formatOf } from '../../shared/file-format.ts';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/loaders/FBX/index.js';
import { judgeUpload } from '../../main/engine/character/judge.ts';
import { readFbxCharacter } from '../../main/engine/character/read-fbx.ts';
import { FBX_KTIME, quatToEulerXYZ } from '../../main/formats/fbx-skinned.ts';
import { child, readFbxNodes, type FbxRecord } from '../export/fbx-nodes.ts';
import { realFixture } from '../fixtures.ts';
import {
  animationReady,
  animationSession,
  call,
  download,
  expectSuccess,
  pollUntil,
  uploadAnimationFile,
  startTestEngine,
  type TestEngine,
} from './helpers.ts';

const MALE = readFileSync(realFixture('fbx', 'Male_Casual.fbx'));
const MALE_TRIANGLES = 1854;

let engine: TestEngine;
let session: Record<string, any>;
beforeAll(async () => {
  engine = await startTestEngine({ animationFiles: 'fbx' });
  const uploaded = expectSuccess('uploadAnimationMesh', await uploadAnimationFile(engine, MALE, 'Male_Casual.fbx'));
  const code = uploaded.session_code as string;
  await animationReady(engine, code, 180_000);
  expectSuccess(
    'submitTextAnimations',
    await call(engine, 'submitTextAnimations', { json: { session_code: code, texts: ['walk', 'wave'] } }),
  );
  session = await pollUntil(
    () => animationSession(engine, code),
    (s) => s.prompts.length === 2 && s.prompts.every((p: { status: string }) => p.status === 'text_done'),
    180_000,
  );
}, 400_000);
afterAll(() => engine?.dispose());

const objects = (nodes: FbxRecord[]) => nodes.find((n) => n.name === 'Objects')!.children;
const takesOf = (nodes: FbxRecord[]) =>
  objects(nodes)
    .filter((n) => n.name === 'AnimationStack')
    .map((n) => String(n.props[1]).split('\x00')[0]);

describe('an uploaded character delivered as FBX (animationFiles: fbx)', () => {
  it('every animated file is an FBX by its URL and its bytes, the signed query string ignored', async () => {
    const urls = [
      session.mesh_url,
      session.animation_url,
      ...session.prompts.map((p: { mesh_url: string }) => p.mesh_url),
      ...session.animation_library.map((a: { url: string }) => a.url),
    ];
    for (const url of urls) {
      expect(new URL(url).pathname, url).toMatch(/\.fbx$/);
      const { bytes } = await download(url);
      expect(formatOf({ url, head: bytes.subarray(0, 32) }), url).toBe('fbx');
    }
  });

  it("each prompt's FBX is the character (its mesh, skin, every bone) with one take named after the prompt", async () => {
    const limbNodes = fbxBones(MALE).bones;
    for (const prompt of session.prompts as { text: string; mesh_url: string }[]) {
      const { bytes } = await download(prompt.mesh_url);
      const nodes = readFbxNodes(bytes);
      expect(takesOf(nodes)).toEqual([prompt.text]);
      // Babylon's FBX loader (the engine's own reading of uploads) reads it back: the same bones and triangles.
      const back = await readFbxCharacter(bytes, `${prompt.text}.fbx`);
      expect(back.bones.map((b) => b.name)).toEqual(expect.arrayContaining(limbNodes));
      expect(back.parts.reduce((n, p) => n + p.indices.length / 3, 0)).toBe(MALE_TRIANGLES);
      expect(fbxBones(bytes).bones).toEqual(expect.arrayContaining(limbNodes));
      // Skinned: a Skin deformer with a Cluster per bone, the clusters' weights on the mesh's vertices.
      const deformers = objects(nodes).filter((n) => n.name === 'Deformer');
      expect(deformers.filter((d) => d.props[2] === 'Skin')).toHaveLength(1);
      const clusters = deformers.filter((d) => d.props[2] === 'Cluster');
      expect(clusters.length).toBe(back.bones.length);
      const weighted = clusters.filter((c) => child(c, 'Weights') !== undefined);
      expect(weighted.length).toBeGreaterThan(10);
      for (const c of clusters) {
        expect(child(c, 'Transform')!.props[0]).toHaveLength(16);
        expect(child(c, 'TransformLink')!.props[0]).toHaveLength(16);
      }
      expect(objects(nodes).some((n) => n.name === 'Pose' && n.props[2] === 'BindPose')).toBe(true);
      // Keys in FBX time: 24 a second, the last one a loop's length in.
      const curve = objects(nodes).find((n) => n.name === 'AnimationCurve')!;
      const times = child(curve, 'KeyTime')!.props[0] as number[];
      expect((times[1]! - times[0]!) / Number(FBX_KTIME)).toBeCloseTo(1 / 24, 2);
    }
  });

  it("the session's animation_url holds the library's clips as takes; its mesh_url the character at rest", async () => {
    const labels = session.animation_library.map((a: { label: string }) => a.label);
    expect(takesOf(readFbxNodes((await download(session.animation_url)).bytes))).toEqual(labels);
    expect(takesOf(readFbxNodes((await download(session.mesh_url)).bytes))).toEqual([]);
    for (const entry of session.animation_library as { label: string; url: string }[])
      expect(takesOf(readFbxNodes((await download(entry.url)).bytes))).toEqual([entry.label]);
  });
});

/** The animation groups Babylon's FBX loader (the viewer's) makes of a file: name and how many bones each moves. */
async function babylonClips(bytes: Buffer): Promise<[string, number][]> {
  const engine = new NullEngine();
  try {
    const scene = new Scene(engine);
    const container = await LoadAssetContainerAsync(`data:;base64,${bytes.toString('base64')}`, scene, {
      pluginExtension: '.fbx',
    });
    return container.animationGroups.map((g) => [g.name, g.targetedAnimations.length]);
  } finally {
    engine.dispose();
  }
}

describe('an animation FBX of the engine uploaded again', () => {
  it('is the character with its own skeleton, not a model the engine made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fbx-again-'));
    try {
      const path = join(dir, 'walk.fbx');
      writeFileSync(path, (await download(session.prompts[0].mesh_url)).bytes);
      expect(await judgeUpload(path, 'fbx')).toMatchObject({ kind: 'character' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Babylon's FBX loader (the viewer's)", () => {
  it("plays each prompt's take as an animation group named after the prompt", async () => {
    for (const prompt of session.prompts as { text: string; mesh_url: string }[]) {
      const clips = await babylonClips((await download(prompt.mesh_url)).bytes);
      expect(clips.map(([name]) => name)).toEqual([prompt.text]);
      expect(clips[0]![1]).toBeGreaterThan(10);
    }
  });
});

describe('quatToEulerXYZ', () => {
  it('gives the XYZ Euler angles (X turns first) of a rotation, and the nearest equivalent to a previous key', () => {
    const about = (axis: [number, number, number], deg: number): [number, number, number, number] => {
      const s = Math.sin((deg * Math.PI) / 360);
      return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos((deg * Math.PI) / 360)];
    };
    expect(quatToEulerXYZ(about([1, 0, 0], 30)).map((x) => +x.toFixed(6))).toEqual([30, 0, 0]);
    expect(quatToEulerXYZ(about([0, 1, 0], -45)).map((x) => +x.toFixed(6))).toEqual([0, -45, 0]);
    expect(quatToEulerXYZ(about([0, 0, 1], 170), [0, 0, -170]).map((x) => +x.toFixed(6))).toEqual([0, 0, -190]);
  });
});
