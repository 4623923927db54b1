// A real character lying down: Quaternius' Male_Casual (fixtures/real/fbx, a rigged humanoid standing Y up)
// read with the engine's FBX reader, turned a quarter turn about X (lying face down, head towards +Z, as an
// FBX exported Z up without conversion is read) and written back as a skinned FBX with all its bones. Also
// the box of the character standing and lying, as the FBX check measures them.
import { readFileSync } from 'node:fs';
import { readFbxCharacter } from '../../main/formats/fbx-read.ts';
import { writeSkinnedFbx } from '../../main/formats/fbx-skinned.ts';
import { axisAngle, mul, normalizeQ, rotate, type V3 } from '../../main/formats/rig-math.ts';
import { realFixture } from '../fixtures.ts';

export interface LyingCharacter {
  /** The FBX file of the character lying down. */
  fbx: Buffer;
  /** Its bone names (those of Male_Casual). */
  bones: string[];
  /** Bounding box sizes (x, y, z) of the mesh standing, as in the fixture, and lying. */
  standing: [number, number, number];
  lying: [number, number, number];
}

export async function lyingCharacter(): Promise<LyingCharacter> {
  const model = await readFbxCharacter(readFileSync(realFixture('fbx', 'Male_Casual.fbx')), 'Male_Casual.fbx');
  const turn = axisAngle([1, 0, 0], Math.PI / 2); // +Y (up) becomes +Z: the head towards the viewer's side
  const turned = (flat: readonly number[]) => {
    const out: number[] = [];
    for (let i = 0; i < flat.length; i += 3) out.push(...rotate(turn, [flat[i]!, flat[i + 1]!, flat[i + 2]!]));
    return out;
  };
  const positions = turned(model.positions);
  const fbx = writeSkinnedFbx(
    {
      name: 'Male_Casual_lying',
      positions,
      normals: turned(model.normals),
      joints: model.joints,
      weights: model.weights,
      parts: model.parts,
      bones: model.bones.map((b) => ({ ...b, t: rotate(turn, b.t), r: normalizeQ(mul(turn, b.r)) })),
      takes: [],
    },
    'Asset Studio test: a real character lying down',
  );
  return { fbx, bones: model.bones.map((b) => b.name), standing: sizeOf(model.positions), lying: sizeOf(positions) };
}

function sizeOf(flat: readonly number[]): [number, number, number] {
  const min: V3 = [Infinity, Infinity, Infinity];
  const max: V3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < flat.length; i++) {
    min[i % 3] = Math.min(min[i % 3]!, flat[i]!);
    max[i % 3] = Math.max(max[i % 3]!, flat[i]!);
  }
  return [max[0] - min[0], max[1] - min[1], max[2] - min[2]];
}
