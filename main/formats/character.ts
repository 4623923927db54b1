// A skinned character and its animations as plain data, in one shape for every reader and writer of this folder:
// the FBX reader makes it of a file (fbx-read.ts) and the GLB clip reader of a GLB (glb-skinned.ts); the FBX and
// GLB writers write it (fbx-skinned.ts, skinned-glb.ts). The engine stores an uploaded character as its JSON
// (main/engine/character/model.ts). Metres, +Y up, right-handed; bones at rest in the bind pose, in world space.
import type { Quat, V3 } from './rig-math.ts';

export type { Quat, V3 } from './rig-math.ts';

export interface CharacterBone {
  name: string;
  /** Index of the parent bone, -1 for a root. */
  parent: number;
  /** Rest (bind) position and rotation in world space (no scale). */
  t: V3;
  r: Quat;
}

/** Triangles of one material. */
export interface CharacterPart {
  name: string;
  /** Linear RGB base colour. */
  color: V3;
  indices: number[];
}

/** A character's mesh in the bind pose, its skin and its skeleton. */
export interface CharacterMesh {
  bones: CharacterBone[];
  /** xyz per vertex. */
  positions: number[];
  normals: number[];
  /** Four bone indices and four weights (summing to 1) per vertex. */
  joints: number[];
  weights: number[];
  /** Linear RGB per vertex, when the file paints its mesh with vertex colours (multiplies the parts' colours). */
  colors?: number[];
  parts: CharacterPart[];
}

/** A character as read from a file. */
export interface CharacterModel extends CharacterMesh {
  /** The file it was read from. */
  source: string;
}

/** A bone's keys in a take: its rotation relative to its parent (xyzw per key) and/or its position in its parent. */
export interface TakeTrack {
  bone: number;
  rotations?: ArrayLike<number>;
  translations?: ArrayLike<number>;
}

/** One animation on the character's bones. */
export interface Take {
  name: string;
  /** Key times in seconds, from 0. */
  times: ArrayLike<number>;
  tracks: TakeTrack[];
}

/** What the writers write: the character, the name of its mesh, and its takes. */
export interface SkinnedCharacter extends CharacterMesh {
  name: string;
  takes: Take[];
}
