// The 17 body joints of a character: the bone standing for each (by name, shared/skeleton-names.ts), where
// each is at rest, which way the body faces, and how tall it is. Joints with no bone of their own (the nose,
// the top of the head; a torso or neck a rig names otherwise) are placed between the others.
import { JOINT_NAMES, type JointName } from '../../../shared/contract/animation.ts';
import { humanoidOf, REQUIRED_JOINTS } from '../../../shared/skeleton-names.ts';
import type { CharacterModel, V3 } from '../../formats/character.ts';
import { add, cross, normalize, scale, sub } from '../../formats/rig-math.ts';

export interface Rig {
  /** The bone (index into model.bones) that stands for each joint it has one for. */
  bones: Partial<Record<JointName, number>>;
  /** Each joint's place at rest, world space. */
  points: Record<JointName, V3>;
  /** Unit vectors: the body's left side, and the way it faces (left × up). */
  left: V3;
  forward: V3;
  /** Floor to the top of the head. */
  height: number;
  floor: number;
  /** The bone that carries the pelvis and both legs (where the body moves up, down and back). */
  root: number;
}

/** Why a character cannot be animated, completing "The mesh … ". */
export type RigProblem = { problem: string };

export function rigOf(model: CharacterModel): Rig | RigProblem {
  if (model.bones.length === 0) return { problem: 'has no skeleton: its mesh has no bones, so it cannot be animated' };
  const names = model.bones.map((b) => b.name);
  const { joints, missing } = humanoidOf(names);
  const index = new Map(names.map((n, i) => [n, i]));
  let bones: Partial<Record<JointName, number>> = {};
  for (const [joint, bone] of Object.entries(joints) as [JointName, string][]) bones[joint] = index.get(bone)!;
  if (missing.length > 0) {
    // Names a rig does not share with the known ones: the joints are looked for by where the bones are.
    const placed = jointsByPosition(model);
    if (REQUIRED_JOINTS.some((j) => placed[j] === undefined)) {
      const shown = names.slice(0, 6).join(', ') + (names.length > 6 ? ', …' : '');
      return {
        problem:
          `has a skeleton (${names.length} bones: ${shown}) that is not a humanoid: no bone was found for ${missing.join(', ')} by its name (names of Mixamo, Unreal, Unity, ` +
          'Blender Rigify, Quaternius or with Left/Right, .L/.R, _l/_r spellings are understood), nor two legs, two arms and a head by where its bones are',
      };
    }
    bones = placed;
  }
  const at = (joint: JointName): V3 | undefined =>
    bones[joint] === undefined ? undefined : model.bones[bones[joint]!]!.t;

  let floor = Infinity;
  let top = -Infinity;
  for (let i = 1; i < model.positions.length; i += 3) {
    floor = Math.min(floor, model.positions[i]!);
    top = Math.max(top, model.positions[i]!);
  }
  const head = at('Head')!;
  const pelvis = at('Pelvis')!;
  const shoulders = scale(add(at('L_Shoulder')!, at('R_Shoulder')!), 0.5);
  const neck = at('Neck') ?? [head[0], (head[1] + shoulders[1]) / 2, head[2]];
  const torso = at('Torso') ?? scale(add(pelvis, neck), 0.5);
  const headTop = Math.max(head[1], top);
  const points = {} as Record<JointName, V3>;
  for (const joint of JOINT_NAMES) points[joint] = at(joint) ?? [0, 0, 0];
  points.Neck = neck;
  points.Torso = torso;
  points.Nose = [head[0], head[1] + 0.3 * (headTop - head[1]), head[2]];
  points.Head = [head[0], head[1] + 0.75 * (headTop - head[1]), head[2]];

  const across = sub(add(points.L_Hip, points.L_Shoulder), add(points.R_Hip, points.R_Shoulder));
  const left = normalize([across[0], 0, across[2]]);
  const forward = cross(left, [0, 1, 0]);
  return {
    bones,
    points,
    left,
    forward,
    height: Math.max(1e-6, headTop - floor),
    floor,
    root: commonAncestor(model, [bones.Pelvis!, bones.L_Hip!, bones.R_Hip!]),
  };
}

const ancestors = (model: CharacterModel, bone: number): number[] => {
  const out: number[] = [];
  for (let b = bone; b >= 0; b = model.bones[b]!.parent) out.push(b);
  return out;
};

/** The deepest bone that all of `bones` descend from (or are); the first one when they share none. */
function commonAncestor(model: CharacterModel, bones: number[]): number {
  const [first, ...rest] = bones.map((b) => ancestors(model, b));
  return first!.find((a) => rest.every((chain) => chain.includes(a))) ?? bones[0]!;
}

/** Limb joints whose bone does not hang from the joint before it (a foot under an IK control): re-hung there. */
const LIMBS: [JointName, JointName][] = [
  ['L_Hip', 'L_Knee'],
  ['L_Knee', 'L_Ankle'],
  ['R_Hip', 'R_Knee'],
  ['R_Knee', 'R_Ankle'],
  ['L_Shoulder', 'L_Elbow'],
  ['L_Elbow', 'L_Wrist'],
  ['R_Shoulder', 'R_Elbow'],
  ['R_Elbow', 'R_Wrist'],
];

/**
 * The model with each limb bone hanging from the limb bone before it (a rig's foot parented to an IK target
 * would otherwise stay put while the leg swings); every bone is kept, with the same rest pose.
 */
export function hangLimbs(model: CharacterModel, rig: Rig): CharacterModel {
  const bones = model.bones.map((b) => ({ ...b }));
  for (const [upper, lower] of LIMBS) {
    const a = rig.bones[upper];
    const b = rig.bones[lower];
    if (a === undefined || b === undefined || ancestors(model, b).includes(a)) continue;
    if (ancestors(model, a).includes(b)) continue; // never make a loop
    bones[b]!.parent = a;
  }
  return { ...model, bones };
}

export function isRig(x: Rig | RigProblem): x is Rig {
  return !('problem' in x);
}

/**
 * The joints of a skeleton found by where its bones are (for bone names no table knows): the feet are the
 * lowest bones either side of the middle, the pelvis where their chains meet, the head the highest bone in the
 * middle, the hands the bones farthest out either side above the pelvis; knees, hips, elbows and shoulders are
 * the bones up each chain, each a limb's segment away from the one below. Only bones that bend the mesh count.
 */
export function jointsByPosition(model: CharacterModel): Partial<Record<JointName, number>> {
  const deforming = new Set<number>();
  for (let k = 0; k < model.weights.length; k++) if (model.weights[k]! > 0) deforming.add(model.joints[k]!);
  const out: Partial<Record<JointName, number>> = {};
  if (deforming.size < 8) return out;
  let minX = Infinity;
  let maxX = -Infinity;
  let floor = Infinity;
  let top = -Infinity;
  for (let i = 0; i < model.positions.length; i += 3) {
    minX = Math.min(minX, model.positions[i]!);
    maxX = Math.max(maxX, model.positions[i]!);
    floor = Math.min(floor, model.positions[i + 1]!);
    top = Math.max(top, model.positions[i + 1]!);
  }
  const h = top - floor;
  const cx = (minX + maxX) / 2;
  const at = (b: number) => model.bones[b]!.t;
  const list = [...deforming].filter((b) => b >= 0 && b < model.bones.length);
  const dist = (a: number, b: number) => Math.hypot(at(a)[0] - at(b)[0], at(a)[1] - at(b)[1], at(a)[2] - at(b)[2]);
  const lowest = (side: 1 | -1) =>
    list.filter((b) => side * (at(b)[0] - cx) > 0.03 * h).sort((a, b) => at(a)[1] - at(b)[1])[0];
  const feet = [lowest(1), lowest(-1)];
  if (feet.some((f) => f === undefined || at(f)[1] - floor > 0.25 * h)) return out;
  const [lFoot, rFoot] = feet as [number, number];
  const pelvis = commonAncestor(model, [lFoot, rFoot]);
  if (pelvis === lFoot || pelvis === rFoot) return out;
  const head = list
    .filter((b) => Math.abs(at(b)[0] - cx) < 0.08 * h && at(b)[1] > floor + 0.7 * h)
    .sort((a, b) => at(b)[1] - at(a)[1])[0];
  if (head === undefined) return out;
  const legs = new Set([...ancestors(model, lFoot), ...ancestors(model, rFoot)]);
  const hand = (side: 1 | -1) =>
    list
      .filter(
        (b) =>
          !legs.has(b) &&
          at(b)[1] > at(pelvis)[1] &&
          side * (at(b)[0] - cx) > 0.1 * h &&
          !ancestors(model, head).includes(b),
      )
      .sort((a, b) => side * (at(b)[0] - at(a)[0]))[0];
  const hands = [hand(1), hand(-1)];
  if (hands.some((x) => x === undefined)) return out;
  /** Up the chain from `from`: the first ancestor at least `gap` away (undefined past `stop`). */
  const up = (from: number, gap: number, stop: number): number | undefined => {
    for (let b = model.bones[from]!.parent; b >= 0 && b !== stop; b = model.bones[b]!.parent)
      if (dist(b, from) >= gap) return b;
    return undefined;
  };
  /** The farthest bone out may be a fingertip: the hand is the highest bone up its chain still close to it. */
  const handOf = (tip: number): number => {
    let hand = tip;
    for (let b = model.bones[tip]!.parent; b >= 0 && b !== pelvis && dist(b, tip) < 0.1 * h; b = model.bones[b]!.parent)
      hand = b;
    return hand;
  };
  for (const [s, foot, wrist] of [
    ['L', lFoot, handOf(hands[0]!)],
    ['R', rFoot, handOf(hands[1]!)],
  ] as const) {
    // The lowest bone may be a toe: its parent, close and low, is the ankle.
    const parent = model.bones[foot]!.parent;
    const ankle =
      parent >= 0 && parent !== pelvis && dist(parent, foot) < 0.12 * h && at(parent)[1] - floor < 0.15 * h
        ? parent
        : foot;
    const knee = up(ankle, 0.1 * h, pelvis);
    const hip = knee === undefined ? undefined : up(knee, 0.1 * h, pelvis);
    const elbow = up(wrist, 0.08 * h, pelvis);
    const shoulder = elbow === undefined ? undefined : up(elbow, 0.08 * h, pelvis);
    if (knee === undefined || hip === undefined || elbow === undefined || shoulder === undefined) return {};
    Object.assign(out, {
      [`${s}_Ankle`]: ankle,
      [`${s}_Knee`]: knee,
      [`${s}_Hip`]: hip,
      [`${s}_Wrist`]: wrist,
      [`${s}_Elbow`]: elbow,
      [`${s}_Shoulder`]: shoulder,
    });
  }
  out.Pelvis = pelvis;
  out.Head = head;
  return out;
}
