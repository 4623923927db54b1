// A motion of the catalogue (catalog.ts) as keys on a character's bones (character/clip-keys.ts): procedural clips
// and gestures sampled over one loop at 24 keys a second, motion capture retargeted (retarget.ts) at its own 30.
import type { CharacterModel } from '../../formats/character.ts';
import { keyTimes } from '../../formats/rig-math.ts';
import { type ClipKeys, FPS, keysOfPoses, sampleClip } from '../character/clip-keys.ts';
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
      const times = Float32Array.from(clip.poses, (_, f) => f / clip.fps);
      return keysOfPoses(model, rig, times.at(-1)!, times, (f) => clip.poses[f]!);
    }
  }
}

export type { Motion };
