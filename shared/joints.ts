// The 17 joints of a mesh-animation session (`animation_joint_dict`), the body skeleton drawn between
// them, and the joint a rig's bone stands for (Mixamo, Blender/Unreal-style names). Pure: no DOM, no Babylon.
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

type Part = 'Hip' | 'Knee' | 'Ankle' | 'Shoulder' | 'Elbow' | 'Wrist';

/** Bone base names (lower case, no separators, side removed) → a joint with no side or a part of a side. */
const CENTRE: Record<string, JointName> = {
  hips: 'Pelvis',
  pelvis: 'Pelvis',
  spine: 'Torso',
  spine1: 'Torso',
  spine01: 'Torso',
  torso: 'Torso',
  neck: 'Neck',
  neck1: 'Neck',
  neck01: 'Neck',
  head: 'Head',
  nose: 'Nose',
};
const SIDED: Record<string, Part> = {
  upleg: 'Hip',
  upperleg: 'Hip',
  thigh: 'Hip',
  hip: 'Hip',
  leg: 'Knee',
  lowerleg: 'Knee',
  calf: 'Knee',
  shin: 'Knee',
  knee: 'Knee',
  foot: 'Ankle',
  ankle: 'Ankle',
  arm: 'Shoulder',
  upperarm: 'Shoulder',
  shoulder: 'Shoulder',
  forearm: 'Elbow',
  lowerarm: 'Elbow',
  elbow: 'Elbow',
  hand: 'Wrist',
  wrist: 'Wrist',
};

/**
 * The joint a bone name stands for, or undefined. Tolerates case, separators (`_ - . space`), a namespace
 * (`mixamorig:`, `Armature|`), and the side as a prefix or suffix (`Left`/`Right`, `L_`/`R_`, `_l`/`.R`).
 */
export function jointOfBone(boneName: string): JointName | undefined {
  let name = boneName.trim().toLowerCase();
  name = name.slice(Math.max(name.lastIndexOf(':'), name.lastIndexOf('|')) + 1);
  name = name.replace(/^mixamorig\d*[_\s.-]?/, '');
  let side: 'L' | 'R' | undefined;
  let m: RegExpExecArray | null;
  if ((m = /^(left|right)[_\s.-]?(.+)$/.exec(name))) {
    side = m[1] === 'left' ? 'L' : 'R';
    name = m[2]!;
  } else if ((m = /^(.+?)[_\s.-]?(left|right)$/.exec(name))) {
    side = m[2] === 'left' ? 'L' : 'R';
    name = m[1]!;
  } else if ((m = /^([lr])[_\s.-](.+)$/.exec(name))) {
    side = m[1] === 'l' ? 'L' : 'R';
    name = m[2]!;
  } else if ((m = /^(.+)[_\s.-]([lr])$/.exec(name))) {
    side = m[2] === 'l' ? 'L' : 'R';
    name = m[1]!;
  }
  const base = name.replace(/[_\s.-]/g, '');
  if (side) {
    const part = SIDED[base];
    return part ? (`${side}_${part}` as JointName) : undefined;
  }
  return CENTRE[base];
}

/** The bones of a rig that stand for each joint (a joint may have none, or several: e.g. Spine and Spine1). */
export function bonesByJoint(boneNames: Iterable<string>): Partial<Record<JointName, string[]>> {
  const out: Partial<Record<JointName, string[]>> = {};
  for (const bone of boneNames) {
    const joint = jointOfBone(bone);
    if (joint) (out[joint] ??= []).push(bone);
  }
  return out;
}

/** The 17 points of a joint dict that are present and numeric, in JOINT_NAMES order. */
export function jointPoints(dict: Record<string, unknown> | undefined): { name: JointName; x: number; y: number }[] {
  const out: { name: JointName; x: number; y: number }[] = [];
  for (const name of JOINT_NAMES) {
    const p = dict?.[name];
    if (Array.isArray(p) && p.length === 2 && typeof p[0] === 'number' && typeof p[1] === 'number' && Number.isFinite(p[0]) && Number.isFinite(p[1])) {
      out.push({ name, x: p[0], y: p[1] });
    }
  }
  return out;
}
