// An uploaded character as plain data (JSON, stored beside the session's files): its mesh in the bind pose
// (metres, +Y up, right-handed), its skin and every bone of its skeleton at rest, in world space.

export type V3 = [number, number, number];
/** A unit quaternion [x, y, z, w]. */
export type Quat = [number, number, number, number];

export interface CharacterBone {
  name: string;
  /** Index of the parent bone, -1 for a root. */
  parent: number;
  /** Rest position and rotation in world space (no scale). */
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

export interface CharacterModel {
  /** The FBX it was read from (the upload, or its path in the zip). */
  source: string;
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

export function triangleCount(model: CharacterModel): number {
  return model.parts.reduce((n, p) => n + p.indices.length / 3, 0);
}
