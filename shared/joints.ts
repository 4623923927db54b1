// The 17 joints of a mesh-animation session (`animation_joint_dict`), the body skeleton drawn between
// them, and the joint a rig's bone stands for (the name table is skeleton-names.ts). Pure: no DOM, no Babylon.
import { JOINT_NAMES, type JointName } from './contract/animation.ts';

export { JOINT_NAMES, type JointName };

/** The body skeleton as joint pairs: legs from the pelvis, the spine to the head, the arms from the neck. */
export const BODY_PAIRS: readonly (readonly [JointName, JointName])[] = [
  ['Pelvis', 'R_Hip'],
  ['R_Hip', 'R_Knee'],
  ['R_Knee', 'R_Ankle'],
  ['Pelvis', 'L_Hip'],
  ['L_Hip', 'L_Knee'],
  ['L_Knee', 'L_Ankle'],
  ['Pelvis', 'Torso'],
  ['Torso', 'Neck'],
  ['Neck', 'Head'],
  ['Neck', 'Nose'],
  ['Neck', 'L_Shoulder'],
  ['L_Shoulder', 'L_Elbow'],
  ['L_Elbow', 'L_Wrist'],
  ['Neck', 'R_Shoulder'],
  ['R_Shoulder', 'R_Elbow'],
  ['R_Elbow', 'R_Wrist'],
];

export {
  bonesByJoint,
  boneOfEachJoint,
  humanoidOf,
  jointOfBone,
  matchBone,
  REQUIRED_JOINTS,
} from './skeleton-names.ts';

/** The 17 points of a joint dict that are present and numeric, in JOINT_NAMES order. */
export function jointPoints(dict: Record<string, unknown> | undefined): { name: JointName; x: number; y: number }[] {
  const out: { name: JointName; x: number; y: number }[] = [];
  for (const name of JOINT_NAMES) {
    const p = dict?.[name];
    if (
      Array.isArray(p) &&
      p.length === 2 &&
      typeof p[0] === 'number' &&
      typeof p[1] === 'number' &&
      Number.isFinite(p[0]) &&
      Number.isFinite(p[1])
    ) {
      out.push({ name, x: p[0], y: p[1] });
    }
  }
  return out;
}
