import { describe, expect, it } from 'vitest';
import {
  BODY_PAIRS,
  boneOfEachJoint,
  bonesByJoint,
  humanoidOf,
  JOINT_NAMES,
  jointOfBone,
  jointPoints,
} from '../../shared/joints.ts';

describe('joints', () => {
  it('has the 17 joints, every one in the body skeleton, as a connected tree', () => {
    expect(JOINT_NAMES).toHaveLength(17);
    const used = new Set(BODY_PAIRS.flat());
    expect([...used].sort()).toEqual([...JOINT_NAMES].sort());
    expect(BODY_PAIRS).toHaveLength(16); // a tree over 17 joints
    // The skeleton's chains, each joint linked to the next: a leg, the spine to the head, the nose, an arm.
    const chains = [
      ['Pelvis', 'L_Hip', 'L_Knee', 'L_Ankle'],
      ['Pelvis', 'Torso', 'Neck', 'Head'],
      ['Neck', 'Nose'],
      ['Neck', 'R_Shoulder', 'R_Elbow', 'R_Wrist'],
    ];
    for (const pair of chains.flatMap((chain) => chain.slice(1).map((joint, i) => [chain[i], joint]))) {
      expect(BODY_PAIRS).toContainEqual(pair);
    }
  });

  it.each([
    ['mixamorig:Hips', 'Pelvis'],
    ['mixamorig:LeftUpLeg', 'L_Hip'],
    ['mixamorig:RightUpLeg', 'R_Hip'],
    ['mixamorig:LeftLeg', 'L_Knee'],
    ['LeftLeg', 'L_Knee'],
    ['LeftFoot', 'L_Ankle'],
    ['mixamorig:RightFoot', 'R_Ankle'],
    ['Spine', 'Torso'],
    ['mixamorig:Spine1', 'Torso'],
    ['Neck', 'Neck'],
    ['mixamorig:Head', 'Head'],
    ['LeftArm', 'L_Shoulder'],
    ['mixamorig:RightArm', 'R_Shoulder'],
    ['LeftForeArm', 'L_Elbow'],
    ['LeftHand', 'L_Wrist'],
    ['mixamorig_RightHand', 'R_Wrist'],
    ['pelvis', 'Pelvis'],
    ['thigh_l', 'L_Hip'],
    ['thigh_r', 'R_Hip'],
    ['calf_l', 'L_Knee'],
    ['foot_r', 'R_Ankle'],
    ['upperarm_l', 'L_Shoulder'],
    ['lowerarm_r', 'R_Elbow'],
    ['hand_l', 'L_Wrist'],
    ['spine_01', 'Torso'],
    ['neck_01', 'Neck'],
    ['head', 'Head'],
    ['UpperArm.L', 'L_Shoulder'],
    ['Forearm-R', 'R_Elbow'],
    ['HAND_L', 'L_Wrist'],
    ['Left Up Leg', 'L_Hip'],
    ['Armature|LowerLeg_Right', 'R_Knee'],
    ['L_Shoulder', 'L_Shoulder'],
    ['R_Ankle', 'R_Ankle'],
    ['DEF-thigh.L', 'L_Hip'],
    ['DEF-shin.R', 'R_Knee'],
    ['DEF-upper_arm.L', 'L_Shoulder'],
    ['DEF-forearm.L.001', 'L_Elbow'],
    ['DEF-spine', 'Pelvis'],
    ['DEF-spine.006', 'Head'],
    ['Palm.L', 'L_Wrist'],
    ['LowerLeg.R', 'R_Knee'],
    ['Abdomen', 'Torso'],
    ['Bip01 L Thigh', 'L_Hip'],
    ['Bip01 R Forearm', 'R_Elbow'],
    ['clavicle_l', 'L_Shoulder'],
  ])('maps the bone %s to %s', (bone, joint) => {
    expect(jointOfBone(bone)).toBe(joint);
  });

  it.each(['mixamorig:LeftHandIndex1', 'root', 'Armature', 'spine_03_end', 'LeftToeBase', 'camera', ''])(
    'maps no joint to %s',
    (bone) => {
      expect(jointOfBone(bone)).toBeUndefined();
    },
  );

  it('groups the bones of a rig by joint', () => {
    expect(
      bonesByJoint([
        'mixamorig:Hips',
        'mixamorig:Spine',
        'mixamorig:Spine1',
        'mixamorig:LeftHandThumb1',
        'mixamorig:LeftHand',
      ]),
    ).toEqual({
      Pelvis: ['mixamorig:Hips'],
      Torso: ['mixamorig:Spine1', 'mixamorig:Spine'], // the middle of the spine first
      L_Wrist: ['mixamorig:LeftHand'],
    });
  });

  it('picks one bone per joint: the upper arm over the clavicle, the middle of the spine', () => {
    const unreal = ['pelvis', 'spine_01', 'spine_02', 'spine_03', 'clavicle_l', 'upperarm_l', 'neck_01', 'head'];
    expect(boneOfEachJoint(unreal)).toMatchObject({
      Pelvis: 'pelvis',
      Torso: 'spine_02',
      L_Shoulder: 'upperarm_l',
      Neck: 'neck_01',
      Head: 'head',
    });
    const quaternius = ['Hips', 'Abdomen', 'Torso', 'Neck', 'Head', 'Shoulder.L', 'UpperArm.L', 'LowerArm.L', 'Palm.L'];
    expect(boneOfEachJoint(quaternius)).toMatchObject({
      Torso: 'Abdomen',
      L_Shoulder: 'UpperArm.L',
      L_Elbow: 'LowerArm.L',
      L_Wrist: 'Palm.L',
    });
  });

  it('tells a humanoid rig from a chain of bones or none', () => {
    const mixamo = ['Hips', 'Spine', 'Neck', 'Head'].concat(
      ...['Left', 'Right'].map((s) =>
        ['UpLeg', 'Leg', 'Foot', 'Arm', 'ForeArm', 'Hand'].map((b) => `mixamorig:${s}${b}`),
      ),
    );
    expect(humanoidOf(mixamo)).toMatchObject({ humanoid: true, missing: [] });
    expect(humanoidOf(['Bone001', 'Bone002', 'Bone003']).humanoid).toBe(false);
    expect(humanoidOf([]).missing).toHaveLength(14);
  });

  it('reads the points of a joint dict, skipping malformed ones', () => {
    expect(jointPoints({ Neck: [1, 2], Pelvis: [3, 4], Head: [1], Nose: ['a', 2], Tail: [0, 0] })).toEqual([
      { name: 'Pelvis', x: 3, y: 4 },
      { name: 'Neck', x: 1, y: 2 },
    ]);
    expect(jointPoints(undefined)).toEqual([]);
  });
});
