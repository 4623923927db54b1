// Animation as the service delivers it, all the way into Unity and Unreal (#22 section 1): an animation job of
// the embedded engine set to deliver FBX as the service does (an uploaded Male_Casual.fbx animated with the
// prompts "walk" and "wave"), exported from the download cache with exportJob (what the CLI and the app call) to
// a Unity project without glTFast (Assets/, ProjectSettings/ and a Packages/manifest.json listing no glTF
// package), to an Unreal project (one FBX per clip) and to Godot (one GLB made from the FBX clips), and each
// file written imported in headless Blender 3.4 (fbx_skin.py): the
// mesh skinned (an Armature modifier, vertex groups holding every vertex), the character's bones and triangles,
// the prompt a named action that moves the bones, and a person's height.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJob, planJob, type JobExportDeps } from '../../main/export/from-job.ts';
import type { ExportResult } from '../../main/export/export.ts';
import type { RunningWebHost } from '../../main/host/web-host.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { fbxBones } from '../../shared/fbx-bones.ts';
import { LIBRARY_CLIPS } from '../engine/library.ts';
import { realFixture } from '../fixtures.ts';
import { tempDir } from '../host/helpers.ts';
import { animatedHero, exportDeps, startTestHost, webHostClient } from '../host/web-host-client.ts';
import { HAS_BLENDER, runBlenderScript, warnIfNoBlender } from './blender.ts';

warnIfNoBlender('test/blender/animation-fbx.test.ts');

/** A cap for a hung Blender, not a speed bar: Blender starts slowly on a loaded 2-core machine. */
const BLENDER_CAP_MS = 10 * 60_000;
const PROMPTS = ['walk', 'wave'];
const MALE = realFixture('fbx', 'Male_Casual.fbx');
const MALE_TRIANGLES = 1854;

const data = tempDir('animation-fbx');
let host: RunningWebHost;
let deps: JobExportDeps;
let promptsJob: JobRecord;
let sessionJob: JobRecord;
const client = webHostClient(() => host);

/** A Unity project that has packages, but no glTF importer among them: it imports FBX only. */
function unityProject(root: string): string {
  mkdirSync(join(root, 'Assets'), { recursive: true });
  mkdirSync(join(root, 'ProjectSettings'), { recursive: true });
  writeFileSync(join(root, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 6000.0.23f1\n');
  mkdirSync(join(root, 'Packages'), { recursive: true });
  writeFileSync(
    join(root, 'Packages', 'manifest.json'),
    JSON.stringify({ dependencies: { 'com.unity.ugui': '2.0.0', 'com.unity.timeline': '1.8.7' } }),
  );
  return root;
}

function unrealProject(root: string): string {
  mkdirSync(join(root, 'Content'), { recursive: true });
  writeFileSync(join(root, 'MyGame.uproject'), JSON.stringify({ FileVersion: 3, EngineAssociation: '5.4' }));
  return root;
}

function godotProject(root: string): string {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'project.godot'), 'config_version=5\n[application]\nconfig/name="My Game"\n');
  return root;
}

interface Facts {
  error?: string;
  armatures: number;
  bones: number;
  meshes: number;
  triangles: number;
  skins: {
    mesh: string;
    armature_modifiers: number;
    modifier_objects: (string | null)[];
    vertex_groups: number;
    vertices: number;
    weighted_vertices: number;
  }[];
  actions: string[];
  height: number;
  motion: Record<string, { moved: number; frames: [number, number] }>;
}

async function runBlender(files: { id: string; path: string }[]): Promise<Record<string, Facts>> {
  const dir = join(data.path, 'blender');
  mkdirSync(dir, { recursive: true });
  const list = join(dir, 'files.json');
  const out = join(dir, 'facts.json');
  writeFileSync(list, JSON.stringify(files));
  const { code, output } = await runBlenderScript('fbx_skin.py', [list, out], { capMs: BLENDER_CAP_MS });
  try {
    return JSON.parse(readFileSync(out, 'utf8')).files;
  } catch (error) {
    throw new Error(`Blender ended with ${code} and no facts (${String(error)}):\n${output.slice(-4000)}`);
  }
}

const exports: Record<'unity' | 'unreal' | 'unitySession' | 'godot', ExportResult> = {} as never;
let facts: Record<string, Facts> = {};

beforeAll(async () => {
  if (!HAS_BLENDER) return;
  host = await startTestHost(join(data.path, 'data'), { engineAnimationFiles: 'fbx' });
  ({ session: sessionJob, prompts: promptsJob } = await animatedHero(client, PROMPTS));
  deps = exportDeps(host);
  exports.unity = await exportJob(deps, promptsJob, {
    projectDir: unityProject(join(data.path, 'unity')),
    name: 'hero',
  });
  exports.unreal = await exportJob(deps, promptsJob, {
    projectDir: unrealProject(join(data.path, 'unreal')),
    name: 'hero',
  });
  // The session's job: its prompts by default too (the library when asked), as in the app.
  exports.unitySession = await exportJob(deps, sessionJob, {
    projectDir: unityProject(join(data.path, 'unity-session')),
    name: 'hero',
    clips: ['library'],
  });
  // Godot gets one GLB made from the FBX clips.
  exports.godot = await exportJob(deps, promptsJob, {
    projectDir: godotProject(join(data.path, 'godot')),
    name: 'hero',
  });
  const files = Object.entries(exports).flatMap(([where, result]) =>
    result.files
      .filter((f) => f.kind === 'fbx' || f.kind === 'glb')
      .map((f) => ({ id: `${where}/${basename(f.path)}`, path: f.path })),
  );
  facts = await runBlender([...files, { id: 'source', path: MALE }]);
}, BLENDER_CAP_MS + 600_000);

afterAll(async () => {
  await host?.close();
  data.remove();
});

/** Blender names an FBX take's action `<armature>|<take>`. */
const takeOf = (action: string) => action.slice(action.lastIndexOf('|') + 1);

describe.skipIf(!HAS_BLENDER)(
  'an FBX animation job exported to Unity (no glTFast) and Unreal, imported in Blender',
  () => {
    it('writes Unity a model FBX and a <Model>@<clip>.fbx per prompt, Unreal one FBX per prompt, and says so in the plan; never a GLB', async () => {
      expect(exports.unity.engine).toBe('unity');
      expect(exports.unity.files.map((f) => basename(f.path))).toEqual(['Hero.fbx', 'Hero@Walk.fbx', 'Hero@Wave.fbx']);
      expect(exports.unity.note).toContain("Unity's convention");
      expect(exports.unreal.engine).toBe('unreal');
      expect(exports.unreal.files.map((f) => basename(f.path))).toEqual(['Hero_Walk.fbx', 'Hero_Wave.fbx']);
      expect(exports.unreal.note).toContain('One FBX per clip');
      for (const where of ['unity', 'unreal'] as const)
        expect(exports[where].clips).toEqual({ written: PROMPTS, skipped: [] });
      const plan = await planJob(deps, promptsJob, { projectDir: join(data.path, 'unity'), name: 'hero2' });
      expect(plan.format).toBe('fbx');
      expect(plan.write.map((w) => w.name)).toEqual(['Hero2.fbx', 'Hero2@Walk.fbx', 'Hero2@Wave.fbx']);
      expect(plan.note).toContain("Unity's convention");
      expect(exports.unitySession.clips!.written).toEqual(LIBRARY_CLIPS);
    });

    it('each FBX imports skinned, with the character’s bones and triangles, its prompt a named action that moves, at a person’s height', () => {
      const source = facts.source!;
      expect(source.error).toBeUndefined();
      const limbNodes = fbxBones(readFileSync(MALE)).bones.length;
      // Unity's model (the character without a take) and its rig-only clips are checked below.
      const ids = Object.keys(facts).filter((id) => id.startsWith('unreal/') && id.endsWith('.fbx'));
      expect(ids.length).toBe(2);
      for (const id of ids) {
        const f = facts[id]!;
        expect(f.error, id).toBeUndefined();
        expect(f.armatures, id).toBe(1);
        expect(f.meshes, id).toBe(1);
        expect(f.triangles, id).toBe(MALE_TRIANGLES);
        expect(f.triangles, id).toBe(source.triangles);
        // Every LimbNode of the upload (and its armature's root node, which the engine keeps as a bone).
        expect(f.bones, id).toBeGreaterThanOrEqual(limbNodes);
        expect(f.bones - limbNodes, id).toBeLessThanOrEqual(1);
        const [skin] = f.skins;
        expect(skin!.armature_modifiers, id).toBe(1);
        expect(skin!.modifier_objects[0], id).toBeTruthy();
        expect(skin!.vertex_groups, id).toBeGreaterThanOrEqual(source.skins[0]!.vertex_groups);
        expect(skin!.weighted_vertices, id).toBe(skin!.vertices);
        expect(f.height, id).toBeGreaterThan(1.2);
        expect(f.height, id).toBeLessThan(2.5);
        const clip = id.slice(id.lastIndexOf('_') + 1, -'.fbx'.length).toLowerCase();
        expect(
          f.actions.map(takeOf).map((a) => a.toLowerCase()),
          id,
        ).toEqual([clip]);
        for (const [action, m] of Object.entries(f.motion)) expect(m.moved, `${id}: ${action}`).toBeGreaterThan(0.01);
      }
    });

    it('Unity’s model FBX imports skinned with no action, and each <Model>@<clip>.fbx as the rig alone with its take that moves', () => {
      for (const where of ['unity', 'unitySession'] as const) {
        const model = facts[`${where}/Hero.fbx`]!;
        expect(model.error, where).toBeUndefined();
        expect([model.armatures, model.meshes, model.triangles, model.actions], where).toEqual([
          1,
          1,
          MALE_TRIANGLES,
          [],
        ]);
        expect(model.skins[0]!.weighted_vertices, where).toBe(model.skins[0]!.vertices);
        const clips = Object.keys(facts).filter((id) => id.startsWith(`${where}/Hero@`));
        expect(clips.length, where).toBe(where === 'unity' ? 2 : 6);
        for (const id of clips) {
          const f = facts[id]!;
          expect(f.error, id).toBeUndefined();
          expect([f.armatures, f.meshes, f.bones], id).toEqual([1, 0, model.bones]);
          const clip = id.slice(id.indexOf('@') + 1, -'.fbx'.length).toLowerCase();
          expect(
            f.actions.map(takeOf).map((a) => a.toLowerCase().replace(/\s+/g, '')),
            id,
          ).toEqual([clip]);
          for (const [action, m] of Object.entries(f.motion)) expect(m.moved, `${id}: ${action}`).toBeGreaterThan(0.01);
        }
      }
    });

    it('Godot gets one GLB made from the FBX clips: skinned, the same bones and triangles, each prompt an action, 1.8 m', () => {
      expect(exports.godot.files.map((f) => basename(f.path))).toEqual(['hero.glb']);
      expect(exports.godot.clips).toEqual({ written: PROMPTS, skipped: [] });
      const f = facts['godot/hero.glb']!;
      expect(f.error).toBeUndefined();
      const fbx = facts['unreal/Hero_Walk.fbx']!;
      expect(f.armatures).toBe(1);
      expect(f.bones).toBe(fbx.bones);
      expect(f.triangles).toBe(MALE_TRIANGLES);
      expect(f.skins[0]!.armature_modifiers).toBe(1);
      expect(f.skins[0]!.weighted_vertices).toBe(f.skins[0]!.vertices);
      expect(f.height).toBeCloseTo(fbx.height, 2);
      // Blender's glTF importer names an action after its animation (`walk`, or `walk_<object>`).
      for (const prompt of PROMPTS)
        expect(
          f.actions.some((a) => a === prompt || a.startsWith(`${prompt}_`)),
          f.actions.join(', '),
        ).toBe(true);
      for (const [action, m] of Object.entries(f.motion)) expect(m.moved, action).toBeGreaterThan(0.01);
    });
  },
);
