// Automatic rigging (main/engine/rigging): a character whose skeleton was dropped gets the engine's humanoid
// skeleton at its own joints and bone-heat skin weights (every vertex, at most four, summing to 1; a hand
// never weighted to the thigh it hangs beside); what is not a humanoid standing upright is refused with why.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CharacterModel } from '../../../main/formats/character.ts';
import { autoRig, NotHumanoid } from '../../../main/engine/rigging/auto-rig.ts';
import { isRig, rigOf } from '../../../main/engine/character/rig.ts';
import { readFbxCharacter } from '../../../main/formats/fbx-read.ts';
import { readFileSync } from 'node:fs';
import { realFixture } from '../../fixtures.ts';
import { boxes, CHAIR, HAND_BELOW, MANNEQUIN, THIGH, unriggedFbx, unriggedModel } from './meshes.ts';

const ARM = /^mixamorig:Left(Shoulder|Arm|ForeArm|Hand)$/;
const LEG = /^mixamorig:Left(UpLeg|Leg|Foot)$/;

/** Each vertex's influences: [bone name, weight] with weight > 0. */
function influences(model: CharacterModel): [string, number][][] {
  const out: [string, number][][] = [];
  for (let v = 0; v < model.positions.length / 3; v++) {
    const list: [string, number][] = [];
    for (let k = 0; k < 4; k++) {
      const w = model.weights[v * 4 + k]!;
      if (w > 0) list.push([model.bones[model.joints[v * 4 + k]!]!.name, w]);
    }
    out.push(list);
  }
  return out;
}

function expectSkinned(model: CharacterModel): void {
  expect(model.joints.length).toBe((model.positions.length / 3) * 4);
  for (const [v, list] of influences(model).entries()) {
    expect(list.length, `vertex ${v}`).toBeGreaterThan(0);
    expect(list.length, `vertex ${v}`).toBeLessThanOrEqual(4);
    expect(
      list.reduce((s, [, w]) => s + w, 0),
      `vertex ${v}`,
    ).toBeCloseTo(1, 6);
  }
}

const y = (m: CharacterModel, v: number) => m.positions[v * 3 + 1]!;
const x = (m: CharacterModel, v: number) => m.positions[v * 3]!;

describe('a character whose skeleton was dropped (Male_Casual, T-pose)', () => {
  let rigged: ReturnType<typeof autoRig>;
  let artist: CharacterModel['bones'];
  beforeAll(async () => {
    // Read back from the stripped FBX, as an upload is.
    const stripped = await readFbxCharacter(unriggedFbx(await unriggedModel()), 'stripped.fbx');
    expect(stripped.bones).toEqual([]);
    rigged = autoRig(stripped);
    artist = (await readFbxCharacter(readFileSync(realFixture('fbx', 'Male_Casual.fbx')), 'Male_Casual.fbx')).bones;
  }, 60_000);

  it('gets the humanoid skeleton the clips drive, its joints near where the artist put them', () => {
    const { model } = rigged;
    const rig = rigOf(model);
    expect(isRig(rig)).toBe(true);
    const at = (name: string) => artist.find((b) => b.name === name)!.t;
    const found = (name: string) => model.bones.find((b) => b.name === `mixamorig:${name}`)!.t;
    const h = 4.84; // the file's height
    for (const [ours, theirs, within] of [
      ['LeftArm', 'UpperArm.L', 0.06],
      ['LeftForeArm', 'LowerArm.L', 0.06],
      ['LeftHand', 'Palm.L', 0.06],
      ['RightHand', 'Palm.R', 0.06],
      ['LeftLeg', 'LowerLeg.L', 0.06],
      ['Neck', 'Neck', 0.06],
      ['LeftUpLeg', 'UpperLeg.L', 0.06],
    ] as const) {
      const d = Math.hypot(...found(ours).map((c, k) => c - at(theirs)[k]!));
      expect(d / h, `${ours} vs the artist's ${theirs}`).toBeLessThan(within);
    }
  });

  it('weights every vertex (at most four bones, summing to 1), the fingers to the hand and the shins to the leg', () => {
    const { model } = rigged;
    expectSkinned(model);
    const all = influences(model);
    const strongest = (v: number) => all[v]!.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    for (let v = 0; v < all.length; v++) {
      if (x(model, v) > 2.3) expect(strongest(v), `fingers, vertex ${v}`).toBe('mixamorig:LeftHand');
      if (x(model, v) > 0.1 && y(model, v) > 0.6 && y(model, v) < 1.0)
        expect(strongest(v), `shin, vertex ${v}`).toBe('mixamorig:LeftLeg');
      if (y(model, v) > 4.6) expect(strongest(v), `top of the head, vertex ${v}`).toBe('mixamorig:Head');
    }
  });
});

describe('a mannequin whose hands hang beside its thighs', () => {
  const { model } = autoRig(boxes(MANNEQUIN));

  it('weights each hand to its arm only, and each thigh to its leg only', () => {
    expectSkinned(model);
    const all = influences(model);
    let hands = 0;
    let thighs = 0;
    for (let v = 0; v < all.length; v++) {
      const p = [x(model, v), y(model, v)] as const;
      if (p[0] > 0.2 && p[1] < HAND_BELOW) {
        hands++;
        for (const [bone] of all[v]!) expect(bone, `hand vertex ${v} at ${p}`).toMatch(ARM);
      }
      if (p[0] > 0.02 && p[0] < 0.16 && p[1] > THIGH.from && p[1] < THIGH.to) {
        thighs++;
        for (const [bone] of all[v]!) expect(bone, `thigh vertex ${v} at ${p}`).not.toMatch(ARM);
        expect(all[v]!.some(([bone]) => LEG.test(bone))).toBe(true);
      }
    }
    expect(hands).toBeGreaterThan(20);
    expect(thighs).toBeGreaterThan(20);
  });

  it('finds the hands at the bottom of the hanging arms, and the left side on +X (it faces +Z)', () => {
    const hand = model.bones.find((b) => b.name === 'mixamorig:LeftHand')!.t;
    expect(hand[0]).toBeGreaterThan(0.2);
    expect(hand[1]).toBeLessThan(1.0);
    expect(hand[1]).toBeGreaterThan(0.72);
    const foot = model.bones.find((b) => b.name === 'mixamorig:RightFoot')!.t;
    expect(foot[0]).toBeLessThan(0);
  });
});

describe('a mannequin facing another way', () => {
  // Its toes show which way it faces; its left is up × forward.
  it.each([
    ['-Z (turned round)', (b: number[]) => [-b[3]!, b[1]!, -b[5]!, -b[0]!, b[4]!, -b[2]!], 0, -1],
    ['+X (turned a quarter)', (b: number[]) => [b[2]!, b[1]!, -b[3]!, b[5]!, b[4]!, -b[0]!], 2, -1],
  ] as const)('facing %s: its left foot and hand on its own left', (_, turn, axis, sign) => {
    const { model } = autoRig(boxes(MANNEQUIN.map((b) => turn([...b]) as (typeof MANNEQUIN)[number])));
    for (const bone of ['LeftFoot', 'LeftHand', 'LeftUpLeg'])
      expect(sign * model.bones.find((b) => b.name === `mixamorig:${bone}`)!.t[axis]!, bone).toBeGreaterThan(0.02);
    for (const bone of ['RightFoot', 'RightHand'])
      expect(sign * model.bones.find((b) => b.name === `mixamorig:${bone}`)!.t[axis]!, bone).toBeLessThan(-0.02);
  });
});

describe('a large mesh with no skeleton', () => {
  // Rigging one this size is measured by bench/auto-rig.ts (--triangles 100000).
  it('is read from its FBX: 90,000 triangles, 48,000 vertices (the reader overflowed its stack past 30,000)', async () => {
    const big = boxes(MANNEQUIN, 26);
    const read = await readFbxCharacter(unriggedFbx(big), 'big.fbx');
    expect(read.positions.length / 3).toBe(big.positions.length / 3);
    expect(read.positions.length / 3).toBeGreaterThan(45_000);
    expect(read.weights.length).toBe((read.positions.length / 3) * 4);
  }, 120_000);
});

describe('what is not a humanoid standing upright is refused with why', () => {
  const refusal = (m: CharacterModel) => {
    try {
      autoRig(m);
    } catch (error) {
      expect(error).toBeInstanceOf(NotHumanoid);
      return (error as Error).message;
    }
    throw new Error('rigged');
  };
  it.each([
    ['a chair', boxes(CHAIR), /stands on 4 separate pieces \(like a chair's or a table's legs\)/],
    [
      'a ball (a cube)',
      boxes([[-0.5, 0, -0.5, 0.5, 1, 0.5]]),
      /stands on one piece where a standing body has two feet/,
    ],
    [
      'a mannequin lying down',
      boxes(MANNEQUIN.map(([x0, y0, z0, x1, y1, z1]) => [x0, z0 + 0.1, y0, x1, z1 + 0.1, y1])),
      /lies down or is flat/,
    ],
  ])('%s', (_, mesh, why) => {
    const message = refusal(mesh);
    expect(message).toMatch(/^is not a humanoid standing upright, so the local engine cannot rig it: /);
    expect(message).toMatch(why);
    expect(message).toContain('upload the rigged FBX');
  });
});
