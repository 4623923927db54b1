// The GLB the export makes of FBX clips (Godot, a plain folder) plays what the FBX plays: a character's FBX take,
// read back with Babylon's FBX loader and sampled on its bones (main/formats/fbx-read.ts), written as GLB
// (skinned-glb.ts), holds the same bone rotations as the engine's own GLB of the same clip.
import { readFileSync } from 'node:fs';
import { NodeIO, type Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { characterFbx, characterGlb } from '../../main/engine/character/outputs.ts';
import { readFbxAnimated, readFbxCharacter } from '../../main/formats/fbx-read.ts';
import { writeSkinnedGlb } from '../../main/formats/skinned-glb.ts';
import { realFixture } from '../fixtures.ts';
import { validatorErrors } from './helpers.ts';

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
    const bytes = await writeSkinnedGlb(back, takes, 'hero');
    expect(await validatorErrors(bytes)).toEqual([]);
    const made = await io.readBinary(bytes);
    expect(
      made
        .getRoot()
        .listAnimations()
        .map((a) => a.getName()),
    ).toEqual(['walk']);
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
