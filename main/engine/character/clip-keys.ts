// The keys of one procedural clip on a character's own bones, at 24 frames a second over one loop: each
// driven bone's rotation relative to its parent, and the pelvis's position in its parent. The GLB and the FBX
// of a character (outputs.ts) are keyed from these, so both play the same motion.
import { JOINT_NAMES, type JointName } from '../../../shared/contract/animation.ts';
import type { MotionSpec } from '../motion-words.ts';
import type { CharacterModel, Quat } from '../../formats/character.ts';
import { periodOf, poseAt, type Pose } from './pose.ts';
import { conj, IDENTITY, keyTimes, mul, normalizeQ, rotate, sameHemisphere, sub } from '../../formats/rig-math.ts';
import type { Rig } from './rig.ts';

export const FPS = 24;

export interface ClipKeys {
  /** One loop, seconds. */
  period: number;
  frames: number;
  /** Key times, seconds. */
  times: Float32Array;
  /** The bones that move, by index, ascending. */
  driven: number[];
  /** Per driven bone: xyzw per key, relative to its parent, neighbouring keys in the same hemisphere. */
  rotations: Map<number, Float32Array>;
  /** The pelvis bone (rig.root)'s position in its parent, xyz per key. */
  pelvis: number;
  hips: Float32Array;
}

/** The keys of `spec` on `model` (already hung: rig.ts hangLimbs). */
export function sampleClip(model: CharacterModel, rig: Rig, spec: MotionSpec): ClipKeys {
  const period = periodOf(spec);
  const times = Float32Array.from(keyTimes(period, FPS));
  const frames = times.length;
  return keysOfPoses(model, rig, period, times, (f) => poseAt(spec, rig, (f / (frames - 1)) * Math.PI * 2));
}

/**
 * The keys of any motion given as a pose per key (procedural clips, gestures, retargeted motion capture: each
 * joint's world turn from rest and the hips' move), at `times` over `period` seconds.
 */
export function keysOfPoses(
  model: CharacterModel,
  rig: Rig,
  period: number,
  times: Float32Array,
  poseOf: (frame: number) => Pose,
): ClipKeys {
  const bones = model.bones;
  const jointOf = new Map<number, JointName>();
  for (const joint of JOINT_NAMES) if (rig.bones[joint] !== undefined) jointOf.set(rig.bones[joint]!, joint);
  const pelvis = rig.root;
  const pelvisBone = bones[pelvis]!;
  const pelvisRest =
    pelvisBone.parent < 0
      ? pelvisBone.t
      : rotate(conj(bones[pelvisBone.parent]!.r), sub(pelvisBone.t, bones[pelvisBone.parent]!.t));
  const frames = times.length;
  const driven = [...jointOf.keys()].sort((x, y) => x - y);
  const rotations = new Map(driven.map((i) => [i, new Float32Array(frames * 4)]));
  const hips = new Float32Array(frames * 3);
  for (let f = 0; f < frames; f++) {
    const pose = poseOf(f);
    const turn = new Map<number, Quat>();
    const turnOf = (i: number): Quat => {
      const known = turn.get(i);
      if (known) return known;
      const own = jointOf.has(i) ? pose.turn[jointOf.get(i)!] : undefined;
      const parent = bones[i]!.parent;
      const value = own ?? (parent < 0 ? IDENTITY : turnOf(parent));
      turn.set(i, value);
      return value;
    };
    for (const i of driven) {
      const b = bones[i]!;
      const world = mul(turnOf(i), b.r);
      const parentWorld = b.parent < 0 ? IDENTITY : mul(turnOf(b.parent), bones[b.parent]!.r);
      const q = normalizeQ(mul(conj(parentWorld), world));
      const out = rotations.get(i)!;
      out.set(sameHemisphere(q, f > 0 ? out : undefined, (f - 1) * 4), f * 4);
    }
    const parentWorld = pelvisBone.parent < 0 ? IDENTITY : mul(turnOf(pelvisBone.parent), bones[pelvisBone.parent]!.r);
    const offset = rotate(conj(parentWorld), pose.hips);
    hips.set([pelvisRest[0] + offset[0], pelvisRest[1] + offset[1], pelvisRest[2] + offset[2]], f * 3);
  }
  return { period, frames, times, driven, rotations, pelvis, hips };
}
