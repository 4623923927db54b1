// An uploaded character as plain data (JSON, stored beside the session's files): its mesh in the bind pose
// (metres, +Y up, right-handed), its skin and every bone of its skeleton at rest, in world space.

// The shape is main/formats/character.ts's, its one home (what the FBX reader makes of a file).
import type { CharacterModel } from '../../formats/character.ts';

export function triangleCount(model: CharacterModel): number {
  return model.parts.reduce((n, p) => n + p.indices.length / 3, 0);
}
