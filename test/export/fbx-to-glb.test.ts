// Animation clips from one format to the other, keeping the motion. The GLB the export makes of FBX clips (Godot,
// a plain folder): a character's FBX take, read back with Babylon's FBX loader and sampled on its bones
// (main/formats/fbx-read.ts), written as GLB (skinned-glb.ts), holds the same bone rotations as the engine's own
// GLB of the same clip. The FBX it makes of GLB clips for Unity without a glTF package (glb-skinned.ts, then
// fbx-skinned.ts): one file, every clip a take, the same bones, triangles and motion.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { NodeIO, type Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { characterFbx, characterGlb } from '../../main/engine/character/outputs.ts';
import { readFbxAnimated, readFbxCharacter } from '../../main/formats/fbx-read.ts';
import { writeSkinnedGlb } from '../../main/formats/skinned-glb.ts';
import { realFixture } from '../fixtures.ts';
import type { ClipSource } from '../../main/export/clips.ts';
import { exportAsset } from '../../main/export/export.ts';
import { readFbxNodes } from './fbx-nodes.ts';
import { clipNames, makeProject, readValidGlb, SOURCE, tempDir } from './helpers.ts';

/** The rotation key of `bone` at the animation's first and last key. */
function ends(doc: Document, bone: string): number[][] {
  const channel = doc
    .getRoot()
    .listAnimations()[0]!
    .listChannels()
    .find((c) => c.getTargetNode()?.getName() === bone && c.getTargetPath() === 'rotation')!;
  const out = channel.getSampler()!.getOutput()!.getArray()!;
  const n = out.length / 4;
  return [0, n - 1].map((k) => Array.from(out.slice(k * 4, k * 4 + 4)));
}

/** The angle between two rotations, degrees. */
const angle = (a: number[], b: number[]) =>
  (2 * Math.acos(Math.min(1, Math.abs(a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!))) * 180) / Math.PI;

describe('a GLB made from FBX clips', () => {
  it("holds the FBX take's motion on every bone it drives, valid, named after the clip", async () => {
    const model = await readFbxCharacter(readFileSync(realFixture('fbx', 'Male_Casual.fbx')), 'Male_Casual.fbx');
    const json = Buffer.from(JSON.stringify(model));
    const io = new NodeIO();
    const reference = await io.readBinary(characterGlb(json, ['walk']));
    const { model: back, takes } = await readFbxAnimated(characterFbx(json, ['walk']), 'walk.fbx');
    expect(takes.map((t) => t.name)).toEqual(['walk']);
    const bytes = writeSkinnedGlb({ ...back, name: 'hero', takes }, 'Asset Studio test');
    const made = await readValidGlb(bytes);
    expect(clipNames(made)).toEqual(['walk']);
    const driven = reference
      .getRoot()
      .listAnimations()[0]!
      .listChannels()
      .filter((c) => c.getTargetPath() === 'rotation')
      .map((c) => c.getTargetNode()!.getName());
    expect(driven.length).toBeGreaterThan(10);
    for (const bone of driven) {
      const [want, got] = [ends(reference, bone), ends(made, bone)];
      for (const k of [0, 1]) expect(angle(want[k]!, got[k]!), `${bone} key ${k}`).toBeLessThan(0.5);
    }
  });
});

describe('GLB clips exported to Unity without a glTF package', () => {
  it('are one FBX with every clip as a take (the character, its skin and bones), never a GLB Unity would ignore', async () => {
    const model = await readFbxCharacter(readFileSync(realFixture('fbx', 'Male_Casual.fbx')), 'Male_Casual.fbx');
    const json = Buffer.from(JSON.stringify(model));
    const dir = tempDir();
    const [base, walk, wave] = ['base', 'walk', 'wave'].map((name) => join(dir, `${name}.glb`));
    writeFileSync(base!, characterGlb(json, []));
    writeFileSync(walk!, characterGlb(json, ['walk']));
    writeFileSync(wave!, characterGlb(json, ['wave']));
    const clips: ClipSource[] = [
      { id: 'prompt:1', name: 'walk', source: 'prompt', path: walk!, format: 'glb' },
      { id: 'prompt:2', name: 'wave', source: 'prompt', path: wave!, format: 'glb' },
    ];
    const result = await exportAsset({
      projectDir: makeProject('unity'),
      name: 'hero',
      files: [{ kind: 'glb', path: base!, name: 'model.glb' }],
      clips,
      source: { ...SOURCE, kind: 'animation_prompt' },
    });
    expect(result.files.map((f) => basename(f.path))).toEqual(['Hero.fbx']);
    expect(result.note).toMatch(/One FBX with every clip \(2\) as a take/);
    const bytes = readFileSync(result.files[0]!.path);
    const takes = readFbxNodes(bytes)
      .find((n) => n.name === 'Objects')!
      .children.filter((n) => n.name === 'AnimationStack')
      .map((n) => String(n.props[1]).split('\0')[0]);
    expect(takes).toEqual(['walk', 'wave']);
    const back = await readFbxAnimated(bytes, 'Hero.fbx');
    expect(back.model.bones.length).toBe(model.bones.length);
    expect(back.model.parts.reduce((n, p) => n + p.indices.length / 3, 0)).toBe(1854);
    // The walk as the FBX plays it: every driven bone as in the GLB it came from.
    const glb = writeSkinnedGlb({ ...back.model, name: 'hero', takes: back.takes.slice(0, 1) }, 'Asset Studio test');
    const reference = await new NodeIO().readBinary(readFileSync(walk!));
    const made = await new NodeIO().readBinary(glb);
    for (const c of reference.getRoot().listAnimations()[0]!.listChannels()) {
      if (c.getTargetPath() !== 'rotation') continue;
      const bone = c.getTargetNode()!.getName();
      const [want, got] = [ends(reference, bone), ends(made, bone)];
      for (const k of [0, 1]) expect(angle(want[k]!, got[k]!), `${bone} key ${k}`).toBeLessThan(0.5);
    }
  });
});
