// A motion-capture clip (library.ts) retargeted onto a character's own skeleton (character/rig.ts), as one pose per
// frame for character/clip-keys.ts:
// - joints mapped by role: the clip stores body joints by name (Pelvis, L_Knee…), and the rig finds the character's
//   bone for each by its name in any known naming scheme (shared/skeleton-names.ts) or by the skeleton's structure;
// - rest-pose correction: each joint's orientation is a frame of two body directions (along the bone, and across
//   it: the limb's hinge axis or the body's left), stored for the clip and built here from the character's rest
//   pose, so a T-pose, an A-pose or arms down all take the clip's pose: turn = clip frame × rest frame⁻¹;
// - root motion: the hips' travel on the ground, stored in leg lengths, times the character's leg length (the hip
//   joint's height above the floor), turned to face where the character faces;
// - feet on the floor: each frame the body is raised or lowered so that its lower ankle is as high above its rest
//   height as the clip's lower foot is above the clip's ground (0 when a foot is planted; a jump keeps its height).
import type { JointName } from '../../../shared/contract/animation.ts';
import type { CharacterModel, Quat, V3 } from '../../formats/character.ts';
import {
  axisAngle,
  basisQuat,
  conj,
  cross,
  IDENTITY,
  mul,
  normalize,
  rotate,
  scale,
  sub,
} from '../../formats/rig-math.ts';
import type { Pose } from '../character/pose.ts';
import type { Rig } from '../character/rig.ts';
import { mocapClip } from './library.ts';

export interface RetargetOptions {
  /** The part of the clip played, seconds (the whole clip by default). */
  from?: number;
  to?: number;
  /** 1 plays at the captured speed. */
  speed?: number;
  /** Keep the hips' ground travel (true) or play in place. */
  travel?: boolean;
}

export interface RetargetedClip {
  fps: number;
  poses: Pose[];
  /** The character's leg length used to scale root motion. */
  leg: number;
}

type Side = 'L' | 'R';
const SIDES: Side[] = ['L', 'R'];

/** The rest frames of the character's joints, built as the clip's frames are (scripts/build-motions.ts). */
function restFrames(model: CharacterModel, rig: Rig): Map<string, Quat> {
  const p = rig.points;
  const { forward } = rig;
  const frames = new Map<string, Quat>();
  const shoulders = sub(p.L_Shoulder, p.R_Shoulder);
  frames.set('Pelvis', basisQuat(sub(p.Torso, p.Pelvis), sub(p.L_Hip, p.R_Hip)));
  frames.set('Torso', basisQuat(sub(p.Neck, p.Torso), shoulders));
  frames.set('Neck', basisQuat(sub(p.Head, p.Neck), shoulders));
  for (const s of SIDES) {
    const upper = sub(p[`${s}_Elbow`], p[`${s}_Shoulder`]);
    const armHinge = normalize(cross(upper, forward));
    frames.set(`${s}_Shoulder`, basisQuat(upper, armHinge));
    frames.set(`${s}_Elbow`, basisQuat(sub(p[`${s}_Wrist`], p[`${s}_Elbow`]), armHinge));
    const thigh = sub(p[`${s}_Knee`], p[`${s}_Hip`]);
    const legHinge = normalize(cross(thigh, scale(forward, -1)));
    frames.set(`${s}_Hip`, basisQuat(thigh, legHinge));
    frames.set(`${s}_Knee`, basisQuat(sub(p[`${s}_Ankle`], p[`${s}_Knee`]), legHinge));
    frames.set(`${s}_Ankle`, basisQuat(toeDirection(model, rig, s), legHinge));
  }
  return frames;
}

/** Along the foot: to the ankle bone's child (the toes) when it has one ahead of it, else forward and down. */
function toeDirection(model: CharacterModel, rig: Rig, s: Side): V3 {
  const ankle = rig.bones[`${s}_Ankle`];
  const height = rig.height;
  if (ankle !== undefined) {
    const at = model.bones[ankle]!.t;
    for (const b of model.bones) {
      if (b.parent !== ankle) continue;
      const d = sub(b.t, at);
      const along = d[0] * rig.forward[0] + d[2] * rig.forward[2];
      if (along > 0.02 * height) return d;
    }
  }
  return [rig.forward[0], -0.5, rig.forward[2]];
}

/** Mocap clip `id` as poses on the character, `fps` a second. */
export function retargetClip(
  model: CharacterModel,
  rig: Rig,
  id: string,
  options: RetargetOptions = {},
): RetargetedClip {
  const clip = mocapClip(id);
  const speed = options.speed ?? 1;
  const first = Math.max(0, Math.min(clip.frames - 2, Math.round((options.from ?? 0) * clip.fps)));
  const last = Math.max(first + 1, Math.min(clip.frames - 1, Math.round((options.to ?? Infinity) * clip.fps)));
  const rest = restFrames(model, rig);
  const yaw = axisAngle([0, 1, 0], Math.atan2(-rig.left[2], rig.left[0])); // canonical left (+X) → the body's left
  const leg = Math.max(1e-6, (rig.points.L_Hip[1] + rig.points.R_Hip[1]) / 2 - rig.floor);
  const jointIndex = new Map(clip.joints.map((j, i) => [j, i]));
  const fk = forwardKinematics(model, rig);
  const [x0, z0] = clip.root(first);
  const fps = clip.fps * speed;
  const poses: Pose[] = [];
  for (let f = first; f <= last; f++) {
    const turn: Partial<Record<JointName, Quat>> = {};
    for (const [joint, j] of jointIndex) {
      const restFrame = rest.get(joint);
      if (restFrame === undefined) continue;
      turn[joint as JointName] = mul(mul(yaw, clip.frame(f, j)), conj(restFrame));
    }
    for (const s of SIDES) turn[`${s}_Wrist`] = turn[`${s}_Elbow`]!;
    turn.Head = turn.Neck!;
    const [x, z, lift] = clip.root(f);
    const travel: V3 = options.travel === false ? [0, 0, 0] : rotate(yaw, [(x - x0) * leg, 0, (z - z0) * leg]);
    const ankles = fk(turn, [travel[0], 0, travel[2]]);
    const lowest = Math.min(ankles.L - fk.rest.L, ankles.R - fk.rest.R);
    poses.push({ turn, hips: [travel[0], lift * leg - lowest, travel[2]] });
  }
  return { fps, poses, leg };
}

/**
 * The ankles' heights for a pose (world space): each bone placed by its parent's turn (a bone no joint drives
 * turns with its parent), from the pelvis bone moved by `hips`. `rest` holds their heights at rest.
 */
export function forwardKinematics(model: CharacterModel, rig: Rig) {
  const bones = model.bones;
  const jointOf = new Map<number, JointName>();
  for (const [joint, bone] of Object.entries(rig.bones) as [JointName, number][]) jointOf.set(bone, joint);
  const chain = (bone: number | undefined): number[] => {
    const out: number[] = [];
    for (let b = bone ?? -1; b >= 0; b = bones[b]!.parent) {
      out.unshift(b);
      if (b === rig.root) break;
    }
    return out;
  };
  const chains = { L: chain(rig.bones.L_Ankle), R: chain(rig.bones.R_Ankle) };
  const at = (s: Side, turn: Partial<Record<JointName, Quat>>, hips: V3): number => {
    const c = chains[s];
    if (c.length === 0) return 0;
    const turns = new Map<number, Quat>();
    const turnOf = (b: number): Quat => {
      const known = turns.get(b);
      if (known) return known;
      const own = jointOf.has(b) ? turn[jointOf.get(b)!] : undefined;
      const parent = bones[b]!.parent;
      const value = own ?? (parent < 0 ? IDENTITY : turnOf(parent));
      turns.set(b, value);
      return value;
    };
    let y = bones[c[0]!]!.t[1] + hips[1];
    for (let k = 1; k < c.length; k++) y += rotate(turnOf(c[k - 1]!), sub(bones[c[k]!]!.t, bones[c[k - 1]!]!.t))[1];
    return y;
  };
  const rest = { L: rig.points.L_Ankle[1], R: rig.points.R_Ankle[1] };
  return Object.assign(
    (turn: Partial<Record<JointName, Quat>>, hips: V3) => ({ L: at('L', turn, hips), R: at('R', turn, hips) }),
    {
      rest,
    },
  );
}
