// Which bone of a rig stands for which of the 17 body joints, by the bone's name: Mixamo (`mixamorig:`),
// Unity humanoid (Hips, LeftUpLeg, LeftLeg…), Unreal (pelvis, spine_01, thigh_l, calf_l…), Blender rigify
// (DEF-thigh.L, DEF-shin.L, DEF-upper_arm.L…), Quaternius (UpperLeg.L, LowerArm.R, Palm.L…), 3ds Max biped
// (Bip01 L Thigh) and generic left/right spellings (L_, _L, .L, Left, left_). One table, used by the engine
// (the rig of an uploaded character) and the renderer (the FBX check, the skeleton overlay). Pure: no DOM.
import { JOINT_NAMES, type JointName } from './contract/animation.ts';

type Part = 'Hip' | 'Knee' | 'Ankle' | 'Shoulder' | 'Elbow' | 'Wrist';

/**
 * Bone base names (lower case, no separators, side removed) → the joint with no side, and a rank: when a rig
 * has several bones for one joint, the lowest rank stands for it (Unreal's spine_02 is the torso's middle,
 * a clavicle is only the shoulder when there is no upper arm).
 */
const CENTRE: Record<string, [JointName, number]> = {
  hips: ['Pelvis', 0],
  pelvis: ['Pelvis', 0],
  hip: ['Pelvis', 1],
  spine1: ['Torso', 0],
  spine02: ['Torso', 0],
  abdomen: ['Torso', 0],
  spine: ['Torso', 1],
  spine01: ['Torso', 1],
  torso: ['Torso', 2],
  chest: ['Torso', 2],
  spine2: ['Torso', 3],
  spine03: ['Torso', 3],
  upperchest: ['Torso', 4],
  neck: ['Neck', 0],
  neck1: ['Neck', 1],
  neck01: ['Neck', 0],
  head: ['Head', 0],
  nose: ['Nose', 0],
};
const SIDED: Record<string, [Part, number]> = {
  upleg: ['Hip', 0],
  upperleg: ['Hip', 0],
  thigh: ['Hip', 0],
  hip: ['Hip', 1],
  leg: ['Knee', 1],
  lowerleg: ['Knee', 0],
  calf: ['Knee', 0],
  shin: ['Knee', 0],
  knee: ['Knee', 0],
  foot: ['Ankle', 0],
  ankle: ['Ankle', 0],
  arm: ['Shoulder', 1],
  upperarm: ['Shoulder', 0],
  shoulder: ['Shoulder', 2],
  clavicle: ['Shoulder', 3],
  forearm: ['Elbow', 0],
  lowerarm: ['Elbow', 0],
  elbow: ['Elbow', 1],
  hand: ['Wrist', 0],
  wrist: ['Wrist', 0],
  palm: ['Wrist', 1],
};
/** Rigify's spine is one chain: spine (the hips), spine.001…003 (the torso), spine.004/.005 (neck), spine.006 (head). */
const RIGIFY_SPINE: Record<string, [JointName, number]> = {
  '': ['Pelvis', 0],
  '001': ['Torso', 1],
  '002': ['Torso', 0],
  '003': ['Torso', 2],
  '004': ['Neck', 0],
  '005': ['Neck', 1],
  '006': ['Head', 0],
};

/** A bone standing for a joint, and how well (0 best; see CENTRE). */
export interface JointMatch {
  joint: JointName;
  rank: number;
}

/**
 * The joint a bone name stands for, with its rank, or undefined. Tolerates case, separators (`_ - . space`),
 * a namespace (`mixamorig:`, `Armature|`), prefixes (`DEF-`, `Bip01 `) and the side as a prefix or suffix
 * (`Left`/`Right`, `L_`/`R_`, `_l`/`.R`); a numbered segment (`upper_arm.L.001`) ranks after the bone itself.
 */
export function matchBone(boneName: string): JointMatch | undefined {
  let name = boneName.trim().toLowerCase();
  name = name.slice(Math.max(name.lastIndexOf(':'), name.lastIndexOf('|')) + 1);
  name = name.replace(/^mixamorig\d*[_\s.-]?/, '').replace(/^bip\d*[_\s]/, '');
  const rigify = /^(def|org)[_.-](.+)$/.exec(name);
  if (rigify) {
    name = rigify[2]!;
    const spine = /^spine(?:\.(\d{3}))?$/.exec(name);
    if (spine) {
      const [joint, rank] = RIGIFY_SPINE[spine[1] ?? '']!;
      return { joint, rank };
    }
  }
  let extra = 0;
  const segment = /^(.+\.[lr])\.\d{3}$/.exec(name);
  if (segment) {
    name = segment[1]!;
    extra = 5;
  }
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
    return part ? { joint: `${side}_${part[0]}` as JointName, rank: part[1] + extra } : undefined;
  }
  const centre = CENTRE[base];
  return centre ? { joint: centre[0], rank: centre[1] + extra } : undefined;
}

/** The joint a bone name stands for, or undefined (see matchBone). */
export function jointOfBone(boneName: string): JointName | undefined {
  return matchBone(boneName)?.joint;
}

/** The bones of a rig that stand for each joint, best first (a joint may have none, or several: e.g. Spine and Spine1). */
export function bonesByJoint(boneNames: Iterable<string>): Partial<Record<JointName, string[]>> {
  const found: Partial<Record<JointName, { bone: string; rank: number; order: number }[]>> = {};
  let order = 0;
  for (const bone of boneNames) {
    const match = matchBone(bone);
    if (match) (found[match.joint] ??= []).push({ bone, rank: match.rank, order: order++ });
  }
  const out: Partial<Record<JointName, string[]>> = {};
  for (const joint of JOINT_NAMES) {
    const list = found[joint];
    if (list) out[joint] = list.sort((a, b) => a.rank - b.rank || a.order - b.order).map((x) => x.bone);
  }
  return out;
}

/** The one bone standing for each joint (the best of bonesByJoint). */
export function boneOfEachJoint(boneNames: Iterable<string>): Partial<Record<JointName, string>> {
  const out: Partial<Record<JointName, string>> = {};
  for (const [joint, bones] of Object.entries(bonesByJoint(boneNames)) as [JointName, string[]][])
    out[joint] = bones[0]!;
  return out;
}

/**
 * The joints a humanoid rig must have bones for: the pelvis, the head, both hips, knees, ankles, shoulders,
 * elbows and wrists (the neck, torso and nose can be placed between them).
 */
export const REQUIRED_JOINTS: readonly JointName[] = JOINT_NAMES.filter(
  (j) => j !== 'Nose' && j !== 'Torso' && j !== 'Neck',
);

/** What a rig's bone names say about it: the joints found, those missing, and whether it is a humanoid. */
export function humanoidOf(boneNames: Iterable<string>): {
  joints: Partial<Record<JointName, string>>;
  missing: JointName[];
  humanoid: boolean;
} {
  const joints = boneOfEachJoint(boneNames);
  const missing = REQUIRED_JOINTS.filter((j) => joints[j] === undefined);
  return { joints, missing, humanoid: missing.length === 0 };
}
