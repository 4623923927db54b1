// An uploaded character as binary FBX, as the service delivers its animations: its mesh (a material per part)
// skinned to ALL the bones of its skeleton at rest in its bind pose, and one take (AnimationStack) per motion
// of the animation library or prompt, named after it, keyed from the same clip keys as the GLB (clip-keys.ts).
import { writeSkinnedFbx, type SkinnedTake, type SkinnedTrack } from '../../formats/fbx-skinned.ts';
import type { MotionSpec } from '../motion-words.ts';
import { sampleClip } from './clip-keys.ts';
import type { CharacterModel } from './model.ts';
import { hangLimbs, type Rig } from './rig.ts';

export interface CharacterTake {
  name: string;
  spec: MotionSpec;
}

/**
 * The program named in its header. Not the engine's GENERATOR: an FBX holding that is taken for a model the
 * engine made (judge.ts, rigged on its figure), and this one is the uploaded character with its own skeleton.
 */
const CREATOR = 'Asset Studio animation (local engine)';

export function buildCharacterFbx(given: CharacterModel, rig: Rig, takes: CharacterTake[]): Buffer {
  const model = hangLimbs(given, rig);
  const name = model.source.replace(/^.*[\\/]/, '').replace(/\.fbx$/i, '') || 'character';
  return writeSkinnedFbx(
    {
      name,
      positions: model.positions,
      normals: model.normals,
      joints: model.joints,
      weights: model.weights,
      parts: model.parts,
      bones: model.bones,
      takes: takes.map((take): SkinnedTake => {
        const keys = sampleClip(model, rig, take.spec);
        const tracks: SkinnedTrack[] = keys.driven.map((bone) => ({
          bone,
          rotations: keys.rotations.get(bone)!,
          ...(bone === keys.pelvis ? { translations: keys.hips } : {}),
        }));
        if (!keys.driven.includes(keys.pelvis)) tracks.push({ bone: keys.pelvis, translations: keys.hips });
        return { name: take.name, times: keys.times, tracks };
      }),
    },
    CREATOR,
  );
}
