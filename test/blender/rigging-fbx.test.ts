// A character the local engine rigged itself (#32 item 1), imported in headless Blender 3.4: Male_Casual with its
// skin and bones dropped, uploaded to the embedded engine, rigged, and animated with the prompt "walk"; the
// prompt's FBX (as the service delivers it) imports as a skinned armature (every vertex weighted) whose walk
// moves the legs (rigged_legs.py).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../host/helpers.ts';
import {
  animatedPrompts,
  animationReady,
  download,
  expectSuccess,
  startTestEngine,
  submitTexts,
  type TestEngine,
  uploadAnimationFile,
} from '../engine/helpers.ts';
import { unriggedFbx, unriggedModel } from '../engine/rigging/meshes.ts';
import { HAS_BLENDER, runBlenderScript, warnIfNoBlender } from './blender.ts';

warnIfNoBlender('test/blender/rigging-fbx.test.ts');

/** A cap for a hung Blender or engine, not a speed bar. */
const CAP_MS = 10 * 60_000;
const data = tempDir('rigging-fbx');
let engine: TestEngine;

interface Facts {
  error?: string;
  armatures: number;
  bones: string[];
  skins: { armature_modifiers: number; vertices: number; weighted_vertices: number }[];
  actions: string[];
  height: number;
  legs: Record<string, Record<string, number>>;
}
let facts: Facts;

beforeAll(async () => {
  if (!HAS_BLENDER) return;
  engine = await startTestEngine({ dataDir: join(data.path, 'engine') });
  const fbx = unriggedFbx(await unriggedModel());
  const code = expectSuccess(
    'uploadAnimationMesh',
    await uploadAnimationFile(engine, fbx, 'casual-mesh.fbx'),
  ).session_code;
  expect((await animationReady(engine, code, CAP_MS)).status).toBe('predefined_done');
  await submitTexts(engine, code, ['walk']);
  const session = await animatedPrompts(engine, code, 1, CAP_MS);
  const dir = join(data.path, 'blender');
  mkdirSync(dir, { recursive: true });
  const walk = join(dir, 'walk.fbx');
  writeFileSync(walk, (await download(session.prompts[0].mesh_url)).bytes);
  writeFileSync(join(dir, 'files.json'), JSON.stringify([{ id: 'walk', path: walk }]));
  const { code: exit, output } = await runBlenderScript(
    'rigged_legs.py',
    [join(dir, 'files.json'), join(dir, 'facts.json')],
    {
      capMs: CAP_MS,
    },
  );
  try {
    facts = JSON.parse(readFileSync(join(dir, 'facts.json'), 'utf8')).files.walk;
  } catch (error) {
    throw new Error(`Blender ended with ${exit} and no facts (${String(error)}):\n${output.slice(-4000)}`);
  }
}, 2 * CAP_MS);

afterAll(async () => {
  await engine?.close();
  data.remove();
});

describe.skipIf(!HAS_BLENDER)('a character the engine rigged, imported in Blender', () => {
  it('is a skinned armature with every vertex weighted, whose walk moves the legs', () => {
    expect(facts.error).toBeUndefined();
    expect(facts.armatures).toBe(1);
    for (const bone of ['Hips', 'LeftUpLeg', 'RightFoot', 'LeftHand', 'Head'])
      expect(
        facts.bones.some((b) => b.endsWith(bone)),
        bone,
      ).toBe(true);
    expect(facts.skins.length).toBeGreaterThan(0);
    for (const skin of facts.skins) {
      expect(skin.armature_modifiers).toBe(1);
      expect(skin.weighted_vertices).toBe(skin.vertices);
    }
    expect(facts.height).toBeGreaterThan(1.2);
    expect(facts.height).toBeLessThan(2.5);
    expect(facts.actions.map((a) => a.slice(a.lastIndexOf('|') + 1))).toEqual(['walk']);
    const [legs] = Object.values(facts.legs);
    // The feet swing by more than a tenth of the body's height over the walk, the knees by more than a twentieth.
    for (const bone of ['LeftFoot', 'RightFoot']) expect(legs![bone], bone).toBeGreaterThan(0.1 * facts.height);
    for (const bone of ['LeftLeg', 'RightLeg']) expect(legs![bone], bone).toBeGreaterThan(0.05 * facts.height);
  });
});
