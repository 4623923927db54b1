// Small 3D vector helpers over flat xyz position arrays (point i at p[3i], p[3i + 1], p[3i + 2]), for the
// engine's meshes and the viewer's.

export type Vec3 = [number, number, number];

/** The vector from point `from` to point `to`. */
export function between(p: Float32Array, from: number, to: number): Vec3 {
  return [p[to * 3]! - p[from * 3]!, p[to * 3 + 1]! - p[from * 3 + 1]!, p[to * 3 + 2]! - p[from * 3 + 2]!];
}

export function cross(u: Vec3, v: Vec3): Vec3 {
  return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
}

/** (b − a) × (c − a): along the triangle's normal (counter-clockwise), as long as twice its area. */
export function triangleCross(p: Float32Array, a: number, b: number, c: number): Vec3 {
  return cross(between(p, a, b), between(p, a, c));
}
