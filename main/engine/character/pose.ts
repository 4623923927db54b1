// The procedural clips of the animation library, posed on any humanoid rig: at each moment, how much each of
// the body's bones turns from its rest pose, as a rotation in world space (about the body's own axes: its
// left, up and forward), and how far the hips move. Arms resting in a T- or A-pose are first brought down
// beside the body. rig.ts says which bone is which; clip-keys.ts turns these into each bone's local rotations.
import type { JointName } from '../../../shared/contract/animation.ts';
import type { ClipKind, MotionSpec } from '../motion-words.ts';
import type { Quat, V3 } from '../../formats/character.ts';
import { axisAngle, between, IDENTITY, mul, scale, sub } from '../../formats/rig-math.ts';
import type { Rig } from './rig.ts';

/** One loop of a clip, in seconds at speed 1. */
const PERIOD: Record<ClipKind, number> = { idle: 3, walk: 1.1, run: 0.7, jump: 1.2, wave: 1.2, sit: 4 };

export interface Pose {
  /** Total world rotation from rest of each joint's bone (the ones it changes). */
  turn: Partial<Record<JointName, Quat>>;
  /** Where the hips move from rest, world space. */
  hips: V3;
}

export function periodOf(spec: MotionSpec): number {
  return PERIOD[spec.clip] / spec.speed;
}

type Side = 'L' | 'R';

/** The pose of `spec` at `phase` (0…2π over one loop). */
export function poseAt(spec: MotionSpec, rig: Rig, phase: number): Pose {
  const up: V3 = [0, 1, 0];
  const { left, forward, height } = rig;
  const pitch = (angle: number) => axisAngle(left, angle); // + tips the top forward; a hanging limb swings back
  const a = spec.amplitude;
  const p = phase;
  const turn: Partial<Record<JointName, Quat>> = {};
  let hips: V3 = [0, 0, 0];

  /** The rotation that brings an arm from its rest direction down beside the body (a little out). */
  const armDown = (s: Side): Quat => {
    const out = s === 'L' ? 1 : -1;
    return between(sub(rig.points[`${s}_Elbow`], rig.points[`${s}_Shoulder`]), [
      left[0] * out * 0.22,
      -1,
      left[2] * out * 0.22,
    ]);
  };
  const arm = (s: Side, chest: Quat, swing: number, elbow: number, down = armDown(s)) => {
    turn[`${s}_Shoulder`] = mul(pitch(-swing), mul(down, chest));
    turn[`${s}_Elbow`] = mul(pitch(-elbow), turn[`${s}_Shoulder`]!);
  };
  const leg = (s: Side, pelvis: Quat, swing: number, knee: number, foot = 0) => {
    turn[`${s}_Hip`] = mul(pitch(-swing), pelvis);
    turn[`${s}_Knee`] = mul(pitch(knee), turn[`${s}_Hip`]!);
    turn[`${s}_Ankle`] = mul(pitch(-foot), turn[`${s}_Knee`]!);
  };
  const spine = (pelvis: Quat, lean: number, headTurn: Quat = IDENTITY): Quat => {
    turn.Pelvis = pelvis;
    turn.Torso = mul(pitch(lean), pelvis);
    turn.Neck = turn.Torso;
    turn.Head = mul(headTurn, turn.Torso);
    return turn.Torso;
  };

  switch (spec.clip) {
    case 'idle': {
      const chest = spine(IDENTITY, 0.03 * Math.sin(p), axisAngle(up, 0.15 * a * Math.sin(p)));
      arm('L', chest, 0.04 * Math.sin(p), 0.15);
      arm('R', chest, -0.04 * Math.sin(p), 0.15);
      hips = [0, 0.004 * height * Math.sin(2 * p), 0];
      break;
    }
    case 'walk':
    case 'run': {
      const run = spec.clip === 'run';
      const swing = (run ? 0.8 : 0.45) * a;
      const kneeBend = (run ? 1.4 : 0.65) * a;
      const chest = spine(axisAngle(up, (run ? 0.12 : 0.08) * Math.sin(p)), run ? 0.22 : 0.05);
      leg('L', turn.Pelvis!, swing * Math.sin(p), kneeBend * Math.max(0, Math.cos(p)) + (run ? 0.25 : 0.05));
      leg('R', turn.Pelvis!, -swing * Math.sin(p), kneeBend * Math.max(0, -Math.cos(p)) + (run ? 0.25 : 0.05));
      arm('L', chest, -0.8 * swing * Math.sin(p), run ? 1.4 : 0.3 + 0.15 * Math.sin(p));
      arm('R', chest, 0.8 * swing * Math.sin(p), run ? 1.4 : 0.3 - 0.15 * Math.sin(p));
      hips = scale([0, 1, 0], (run ? 0.03 : 0.015) * height * Math.cos(2 * p));
      break;
    }
    case 'jump': {
      const crouch = Math.max(0, Math.cos(p)) ** 2;
      const air = Math.max(0, -Math.cos(p));
      const chest = spine(IDENTITY, 0.35 * crouch);
      for (const s of ['L', 'R'] as const) {
        leg(s, IDENTITY, 1.0 * crouch, 1.8 * crouch, -0.8 * crouch);
        arm(s, chest, -0.6 * crouch + 2.4 * air * a, 0.3);
      }
      hips = add3(scale([0, 1, 0], (0.22 * air * a - 0.18 * crouch) * height), scale(forward, -0.04 * crouch * height));
      break;
    }
    case 'wave': {
      const chest = spine(IDENTITY, 0, axisAngle(up, 0.05 * Math.sin(p)));
      const sides: Side[] = spec.side === 'both' ? ['L', 'R'] : [spec.side === 'left' ? 'L' : 'R'];
      for (const s of ['L', 'R'] as const) {
        if (!sides.includes(s)) {
          arm(s, chest, 0, 0.15);
          continue;
        }
        const out = s === 'L' ? 1 : -1;
        const raised: V3 = [left[0] * out * 0.75, 0.65, left[2] * out * 0.75];
        const shoulder = mul(between(sub(rig.points[`${s}_Elbow`], rig.points[`${s}_Shoulder`]), raised), chest);
        turn[`${s}_Shoulder`] = shoulder;
        const wiggle = axisAngle(forward, out * 0.45 * a * Math.sin(2 * p));
        turn[`${s}_Elbow`] = mul(wiggle, mul(between(raised, [left[0] * out * 0.2, 1, left[2] * out * 0.2]), shoulder));
      }
      hips = [0, 0.003 * height * Math.sin(p), 0];
      break;
    }
    case 'sit': {
      // Down (the first 30% of the loop), seated, and up again (the last 30%).
      const t = p / (2 * Math.PI);
      const s = smooth(t < 0.3 ? t / 0.3 : t > 0.7 ? (1 - t) / 0.3 : 1);
      const thigh = Math.hypot(...sub(rig.points.L_Hip, rig.points.L_Knee));
      const chest = spine(IDENTITY, 0.25 * s - 0.15 * s * s + 0.02 * Math.sin(4 * p));
      for (const side of ['L', 'R'] as const) {
        leg(side, IDENTITY, (Math.PI / 2) * s, (Math.PI / 2) * s);
        arm(side, chest, 0.15 * s, 0.9 * s + 0.15);
      }
      hips = add3(scale([0, 1, 0], -thigh * s), scale(forward, -thigh * 0.95 * s));
      break;
    }
  }
  return { turn, hips };
}

const smooth = (x: number) => x * x * (3 - 2 * x);
const add3 = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
