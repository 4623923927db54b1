// The humanoid skeleton fitted to a body's joints (body.ts): the bones of the engine's own animated figure
// (outputs/animated.ts: Mixamo's names, `mixamorig:Hips`…), which rig.ts knows by name and the clips drive,
// plus the collarbones and each bone's segments, from its joint to the next (or to the fingertips, the toes,
// the top of the head), that the skin weights measure distances to (heat.ts).
import type { CharacterBone, V3 } from '../../formats/character.ts';
import { IDENTITY } from '../../formats/rig-math.ts';
import type { Body } from './body.ts';

export const PREFIX = 'mixamorig:';

export interface FittedBone extends CharacterBone {
  /** Segments from the bone's joint (world space) the bone holds the mesh along. */
  segments: [V3, V3][];
}

/** The skeleton on `body`, parents before children. */
export function fitSkeleton(body: Body): FittedBone[] {
  const bones: FittedBone[] = [];
  const index = new Map<string, number>();
  const add = (name: string, parent: string | undefined, t: V3, ...ends: V3[]) => {
    index.set(name, bones.length);
    bones.push({
      name: PREFIX + name,
      parent: parent === undefined ? -1 : index.get(parent)!,
      t,
      r: IDENTITY,
      segments: ends.map((e): [V3, V3] => [t, e]),
    });
  };
  add('Hips', undefined, body.pelvis, body.spine, body.L.hip, body.R.hip);
  add('Spine', 'Hips', body.spine, body.neck, body.L.clavicle, body.R.clavicle);
  add('Neck', 'Spine', body.neck, body.head);
  add('Head', 'Neck', body.head, body.headTop);
  for (const [side, limb] of [
    ['Left', body.L],
    ['Right', body.R],
  ] as const) {
    add(`${side}UpLeg`, 'Hips', limb.hip, limb.knee);
    add(`${side}Leg`, `${side}UpLeg`, limb.knee, limb.ankle);
    add(`${side}Foot`, `${side}Leg`, limb.ankle, limb.toe);
    add(`${side}Shoulder`, 'Spine', limb.clavicle, limb.shoulder);
    add(`${side}Arm`, `${side}Shoulder`, limb.shoulder, limb.elbow);
    add(`${side}ForeArm`, `${side}Arm`, limb.elbow, limb.wrist);
    add(`${side}Hand`, `${side}ForeArm`, limb.wrist, limb.fingertip);
  }
  return bones;
}
