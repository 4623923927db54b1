// A motion of the catalogue (catalog.ts) as keys on a character's bones (character/clip-keys.ts): procedural clips
// and gestures sampled over one loop, motion capture retargeted (retarget.ts) and blended between its frames: all
// keyed 24 times a second.
import type { CharacterModel } from '../../formats/character.ts';
import type { JointName } from '../../../shared/contract/animation.ts';
import { keyTimes, normalizeQ, type Quat, type V3 } from '../../formats/rig-math.ts';
import { type ClipKeys, FPS, keysOfPoses, sampleClip } from '../character/clip-keys.ts';
import type { Pose } from '../character/pose.ts';
import type { Rig } from '../character/rig.ts';
import type { Motion } from './catalog.ts';
import { GESTURES, type GestureKind, gesturePose } from './gestures.ts';
import type { MotionChoice } from './match.ts';
import { forwardKinematics, retargetClip } from './retarget.ts';

/** Gestures whose feet leave the floor (swimming, pedalling in the air, jumping for joy): posed as they are. */
const AIRBORNE = new Set<GestureKind>(['swim', 'cycle_air', 'cheer']);

export function sampleMotion(model: CharacterModel, rig: Rig, choice: Pick<MotionChoice, 'motion' | 'spec'>): ClipKeys {
  const { motion, spec } = choice;
  const source = motion.source;
  switch (source.type) {
    case 'procedural':
      return sampleClip(model, rig, { clip: source.clip, ...spec });
    case 'gesture': {
      const period = GESTURES[source.gesture] / spec.speed;
      const times = Float32Array.from(keyTimes(period, FPS));
      const last = times.length - 1;
      const fk = forwardKinematics(model, rig);
      return keysOfPoses(model, rig, period, times, (f) => {
        const pose = gesturePose(source.gesture, rig, (f / last) * Math.PI * 2, spec.amplitude);
        if (AIRBORNE.has(source.gesture)) return pose;
        // Feet on the floor: the lower ankle at its rest height (a crouch's folded legs, a kick's standing foot).
        const ankles = fk(pose.turn, pose.hips);
        const lowest = Math.min(ankles.L - fk.rest.L, ankles.R - fk.rest.R);
        return { ...pose, hips: [pose.hips[0], pose.hips[1] - lowest, pose.hips[2]] };
      });
    }
    case 'mocap': {
      const clip = retargetClip(model, rig, source.clip, {
        ...(source.from === undefined ? {} : { from: source.from }),
        ...(source.to === undefined ? {} : { to: source.to }),
      });
      // Keyed at the engine's 24 a second like every clip (the capture's 30 blended between its frames).
      const seconds = (clip.poses.length - 1) / clip.fps;
      const times = Float32Array.from(keyTimes(seconds, FPS));
      return keysOfPoses(model, rig, seconds, times, (f) => poseBetween(clip.poses, times[f]! * clip.fps));
    }
  }
}

/** The pose at fractional frame `at`: the two frames around it blended (turns normalised-lerped, hips lerped). */
function poseBetween(poses: Pose[], at: number): Pose {
  const i = Math.max(0, Math.min(poses.length - 2, Math.floor(at)));
  const u = Math.max(0, Math.min(1, at - i));
  const [a, b] = [poses[i]!, poses[i + 1]!];
  const turn: Pose['turn'] = {};
  for (const [joint, qa] of Object.entries(a.turn) as [JointName, Quat][]) {
    const qb = b.turn[joint] ?? qa;
    const sign = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3] < 0 ? -1 : 1;
    turn[joint] = normalizeQ([0, 1, 2, 3].map((k) => qa[k]! * (1 - u) + sign * qb[k]! * u) as Quat);
  }
  const hips = [0, 1, 2].map((k) => a.hips[k]! * (1 - u) + b.hips[k]! * u) as V3;
  return { turn, hips };
}

export type { Motion };
