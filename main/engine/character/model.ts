// An uploaded character as plain data (JSON, stored beside the session's files): its mesh in the bind pose
// (metres, +Y up, right-handed), its skin and every bone of its skeleton at rest, in world space.

// The shape is the FBX reader's (main/formats/fbx-read.ts), its one home; a type-only import loads nothing.
import type { CharacterModel } from '../../formats/fbx-read.ts';

export type { CharacterBone, CharacterModel, CharacterPart, Quat, V3 } from '../../formats/fbx-read.ts';

export function triangleCount(model: CharacterModel): number {
  return model.parts.reduce((n, p) => n + p.indices.length / 3, 0);
}
