// Procedural motions for common game gestures the motion-capture library lacks (clap, bow, salute, point,
// kick, crouch, crawl, look around, fall and get up, swim, cycling in the air, cheer, nod, idle variants),
// posed on any humanoid rig as character/pose.ts poses its clips: each bone's world turn from rest, and where
// the hips move. Limbs are aimed at directions of the body (its left, up and forward), so a T-pose, an A-pose
// or arms down all reach the same pose.
import type { JointName } from '../../../shared/contract/animation.ts';
import type { Quat, V3 } from '../../formats/character.ts';
import { add, axisAngle, between, IDENTITY, mul, normalize, rotate, scale, sub } from '../../formats/rig-math.ts';
import type { Pose } from '../character/pose.ts';
import type { Rig } from '../character/rig.ts';

export const GESTURES = {
  clap: 1,
  bow: 3,
  salute: 3,
  point: 2.5,
  kick: 1.4,
  crouch: 3,
  crawl: 1.6,
  look_around: 4,
  fall_get_up: 5,
  swim: 1.6,
  cycle_air: 1.2,
  cheer: 1.4,
  nod: 1.5,
  shake_head: 1.5,
  idle_shift: 4,
  idle_stretch: 4,
  push_up: 2,
  throw: 1.6,
} as const;

export type GestureKind = keyof typeof GESTURES;

type Side = 'L' | 'R';

/** The pose of gesture `kind` at `phase` (0…2π over one loop, GESTURES[kind] seconds at speed 1). */
export function gesturePose(kind: GestureKind, rig: Rig, phase: number, amplitude = 1): Pose {
  const { left, forward, height } = rig;
  const up: V3 = [0, 1, 0];
  const p = phase;
  const t = p / (2 * Math.PI);
  const a = amplitude;
  /** A direction in the body's frame: sideways (out from side `s`), up and forward. */
  const dir = (s: Side | undefined, out: number, upward: number, ahead: number): V3 =>
    normalize(add(add(scale(left, (s === 'R' ? -1 : 1) * out), scale(up, upward)), scale(forward, ahead)));
  const pitch = (angle: number) => axisAngle(left, angle); // + tips the top forward
  const turn: Partial<Record<JointName, Quat>> = {};
  let hips: V3 = [0, 0, 0];
  const spine = (body: Quat, lean = 0, head: Quat = IDENTITY): Quat => {
    turn.Pelvis = body;
    turn.Torso = mul(pitch(lean), body);
    turn.Neck = turn.Torso;
    turn.Head = mul(head, turn.Torso);
    return turn.Torso;
  };
  /** The upper arm and forearm of side `s` aimed along `upper` and `fore` once the chest has turned by `chest`. */
  const arm = (s: Side, chest: Quat, upper: V3, fore: V3 = upper) => {
    const rest = sub(rig.points[`${s}_Elbow`], rig.points[`${s}_Shoulder`]);
    const shoulder = mul(between(rotate(chest, rest), rotate(chest, upper)), chest);
    const restFore = rotate(shoulder, sub(rig.points[`${s}_Wrist`], rig.points[`${s}_Elbow`]));
    turn[`${s}_Shoulder`] = shoulder;
    turn[`${s}_Elbow`] = mul(between(restFore, rotate(chest, fore)), shoulder);
    turn[`${s}_Wrist`] = turn[`${s}_Elbow`];
  };
  const armsDown = (chest: Quat) => {
    arm('L', chest, dir('L', 0.2, -1, 0), dir('L', 0.15, -1, 0.25));
    arm('R', chest, dir('R', 0.2, -1, 0), dir('R', 0.15, -1, 0.25));
  };
  /** A leg swung `swing` forward at the hip (radians) with the knee bent `knee`, after the pelvis's turn. */
  const leg = (s: Side, body: Quat, swing: number, knee: number, foot = 0) => {
    turn[`${s}_Hip`] = mul(pitch(-swing), body);
    turn[`${s}_Knee`] = mul(pitch(knee), turn[`${s}_Hip`]!);
    turn[`${s}_Ankle`] = mul(pitch(-foot), turn[`${s}_Knee`]!);
  };
  const thigh = Math.hypot(...sub(rig.points.L_Hip, rig.points.L_Knee));
  const hipHeight = rig.points.L_Hip[1] - rig.floor;
  const ease = (x: number) => {
    const c = Math.min(1, Math.max(0, x));
    return c * c * (3 - 2 * c);
  };
  /** 0 → 1 over [from, to] of the loop, back to 0 over [back, end]. */
  const hold = (from: number, to: number, back: number, end: number) =>
    ease((t - from) / (to - from)) * (1 - ease((t - back) / (end - back)));

  switch (kind) {
    case 'clap': {
      const chest = spine(IDENTITY);
      const open = 0.5 + 0.5 * Math.cos(p);
      for (const s of ['L', 'R'] as const)
        arm(s, chest, dir(s, 0.45, -0.55, 0.7), dir(s, 0.05 + 0.45 * open * a, 0.2, 1));
      break;
    }
    case 'bow': {
      const s = hold(0, 0.3, 0.65, 0.95);
      const chest = spine(IDENTITY, 0.9 * a * s);
      armsDown(chest);
      hips = scale(forward, -0.06 * height * s);
      break;
    }
    case 'salute': {
      const s = hold(0, 0.2, 0.75, 0.95);
      const chest = spine(IDENTITY);
      arm('L', chest, dir('L', 0.2, -1, 0));
      arm(
        'R',
        chest,
        normalize(add(scale(dir('R', 0.2, -1, 0), 1 - s), scale(dir('R', 1, 0.15, 0.35), s))),
        normalize(add(scale(dir('R', 0.15, -1, 0.25), 1 - s), scale(dir('L', 0.6, 0.7, 0.35), s))),
      );
      break;
    }
    case 'point': {
      const s = hold(0, 0.25, 0.75, 0.95);
      const chest = spine(IDENTITY, 0, axisAngle(up, -0.2 * s));
      arm('L', chest, dir('L', 0.2, -1, 0));
      const aim = dir('R', 0.25, 0.1, 1);
      arm(
        'R',
        chest,
        normalize(add(scale(dir('R', 0.2, -1, 0), 1 - s), scale(aim, s))),
        normalize(add(scale(dir('R', 0.15, -1, 0.25), 1 - s), scale(aim, s))),
      );
      break;
    }
    case 'kick': {
      const k = Math.max(0, Math.sin(p)) ** 1.5;
      const chest = spine(IDENTITY, -0.25 * k);
      arm('L', chest, dir('L', 0.6, -0.5, -0.2), dir('L', 0.4, -0.2, 0.6));
      arm('R', chest, dir('R', 0.6, -0.5, 0.3), dir('R', 0.4, 0, 0.6));
      leg('R', IDENTITY, 1.5 * a * k, 0.9 * (1 - k) * Math.min(1, 4 * k) + 0.1, 0.3 * k);
      leg('L', IDENTITY, 0, 0.15 * k);
      break;
    }
    case 'crouch': {
      const s = hold(0, 0.3, 0.7, 1);
      const chest = spine(IDENTITY, 0.45 * s);
      for (const side of ['L', 'R'] as const) {
        leg(side, IDENTITY, 1.2 * s, 2.1 * s, 0.9 * s); // the foot flat: thigh, shin and foot turns add to 0
        arm(side, chest, dir(side, 0.3, -0.6, 0.8 * s), dir(side, 0.1, -0.3, 1));
      }
      hips = add(scale(up, -0.45 * hipHeight * s), scale(forward, -0.1 * thigh * s));
      break;
    }
    case 'crawl': {
      // On hands and knees: the body horizontal, arms down to the floor, legs folded under; limbs alternate.
      const body = pitch(Math.PI / 2);
      const chest = spine(body, -0.05, pitch(-0.9));
      const c = Math.sin(p) * 0.25 * a;
      arm('L', chest, dir('L', 0.15, -0.8, 0.6 + c), dir('L', 0.1, -1, 0.2 + c));
      arm('R', chest, dir('R', 0.15, -0.8, 0.6 - c), dir('R', 0.1, -1, 0.2 - c));
      // Thighs down from the level body, shins back along the floor.
      leg('L', IDENTITY, -c * 1.5, Math.PI / 2, 0);
      leg('R', IDENTITY, c * 1.5, Math.PI / 2, 0);
      hips = add(scale(up, -(hipHeight - thigh)), scale(forward, 0.15 * t * height));
      break;
    }
    case 'look_around': {
      const chest = spine(
        axisAngle(up, 0.15 * Math.sin(p)),
        0,
        mul(axisAngle(up, 0.9 * a * Math.sin(p)), pitch(0.15 * Math.sin(2 * p))),
      );
      armsDown(chest);
      break;
    }
    case 'fall_get_up': {
      // Falls backward onto the floor (0–25%), lies (to 55%), gets up again (to 90%).
      const down = ease(t / 0.25) * (1 - ease((t - 0.55) / 0.35));
      const body = pitch(-1.45 * down);
      const chest = spine(body, 0.2 * down);
      for (const s of ['L', 'R'] as const) {
        arm(
          s,
          chest,
          dir(s, 0.2 + 0.6 * down, -1 + 0.8 * down, 0.3 * down),
          dir(s, 0.2 + 0.4 * down, -1 + 0.8 * down, 0.4),
        );
        leg(s, body, 0.3 * down, 0.4 * down);
      }
      hips = add(scale(up, -0.85 * hipHeight * down), scale(forward, -0.25 * height * down));
      break;
    }
    case 'swim': {
      // Front crawl in the water: the body level, arms windmilling, legs fluttering.
      const body = pitch(Math.PI / 2 - 0.1);
      const chest = spine(body, 0, pitch(-0.6));
      for (const [s, off] of [
        ['L', 0],
        ['R', Math.PI],
      ] as const) {
        const q = p + off;
        const reach = dir(s, 0.25, -Math.cos(q), -Math.sin(q));
        arm(s, chest, reach, reach);
      }
      leg('L', body, 0.25 * Math.sin(3 * p), 0.15);
      leg('R', body, -0.25 * Math.sin(3 * p), 0.15);
      hips = scale(up, -0.5 * hipHeight);
      break;
    }
    case 'cycle_air': {
      // Lying on the back, legs pedalling in the air.
      const body = pitch(-Math.PI / 2);
      const chest = spine(body, 0.1, pitch(0.6));
      armsDown(chest);
      for (const [s, off] of [
        ['L', 0],
        ['R', Math.PI],
      ] as const) {
        const q = p + off;
        leg(s, body, 1.3 + 0.4 * a * Math.sin(q), 0.9 + 0.7 * a * Math.cos(q), 0.2);
      }
      hips = scale(up, -(hipHeight - 0.1 * height));
      break;
    }
    case 'cheer': {
      const c = Math.abs(Math.sin(p));
      const chest = spine(IDENTITY, -0.1 * c);
      for (const s of ['L', 'R'] as const) arm(s, chest, dir(s, 0.5, 0.3 + 0.7 * c, 0.1), dir(s, 0.3, 1, 0.1));
      hips = scale(up, 0.05 * height * a * Math.max(0, Math.sin(2 * p)));
      break;
    }
    case 'nod':
    case 'shake_head': {
      const head = kind === 'nod' ? pitch(0.35 * a * Math.sin(2 * p)) : axisAngle(up, 0.5 * a * Math.sin(2 * p));
      armsDown(spine(IDENTITY, 0, head));
      break;
    }
    case 'idle_shift': {
      const w = Math.sin(p);
      const chest = spine(axisAngle(forward, 0.05 * w), 0.02, axisAngle(up, 0.1 * Math.sin(p * 0.5)));
      armsDown(chest);
      leg('L', axisAngle(forward, -0.05 * w), 0.05 * Math.max(0, -w), 0.12 * Math.max(0, -w));
      leg('R', axisAngle(forward, -0.05 * w), 0.05 * Math.max(0, w), 0.12 * Math.max(0, w));
      hips = scale(left, 0.03 * height * w);
      break;
    }
    case 'idle_stretch': {
      const s = hold(0, 0.35, 0.65, 1);
      const chest = spine(IDENTITY, -0.15 * s);
      for (const side of ['L', 'R'] as const)
        arm(side, chest, normalize(add(scale(dir(side, 0.2, -1, 0), 1 - s), scale(dir(side, 0.2, 1, 0), s))));
      hips = scale(up, 0.02 * height * s);
      break;
    }
    case 'push_up': {
      const d = 0.5 - 0.5 * Math.cos(p);
      const body = pitch(Math.PI / 2 - 0.2);
      const chest = spine(body, 0, pitch(-0.5));
      for (const side of ['L', 'R'] as const)
        arm(side, chest, dir(side, 0.35 + 0.3 * d, -1, 0.1 - 0.3 * d), dir(side, 0.1, -1, 0.2 * d));
      leg('L', body, 0, 0);
      leg('R', body, 0, 0);
      hips = add(scale(up, -(hipHeight - 0.28 * height) - 0.1 * height * d), scale(forward, -0.1 * height));
      break;
    }
    case 'throw': {
      const wind = Math.sin(p);
      const chest = spine(axisAngle(up, -0.5 * wind), -0.1 * wind);
      arm('L', chest, dir('L', 0.5, -0.2, 0.6));
      arm('R', chest, dir('R', 0.6, 0.6 - 0.8 * Math.max(0, -wind), -0.6 * wind), dir('R', 0.2, 0.8, -0.5 * wind));
      leg('L', IDENTITY, 0.3, 0.2);
      leg('R', IDENTITY, -0.2, 0.2);
      break;
    }
  }
  return { turn, hips };
}
