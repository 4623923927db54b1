// Quaternions [x, y, z, w], vectors and rigid transforms for posing and writing a rig: the one home of this
// arithmetic for the FBX and GLB writers here and for the engine's characters (main/engine/character/).

export type V3 = [number, number, number];
/** A unit quaternion [x, y, z, w]. */
export type Quat = [number, number, number, number];

export const IDENTITY: Quat = [0, 0, 0, 1];

export function mul(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

export const conj = ([x, y, z, w]: Quat): Quat => [-x, -y, -z, w];

export function axisAngle(axis: V3, angle: number): Quat {
  const n = Math.hypot(...axis) || 1;
  const s = Math.sin(angle / 2) / n;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

export function rotate(q: Quat, v: V3): V3 {
  const [x, y, z] = mul(mul(q, [v[0], v[1], v[2], 0]), conj(q));
  return [x, y, z];
}

/** The shortest rotation taking the direction `from` to the direction `to`. */
export function between(from: V3, to: V3): Quat {
  const a = normalize(from);
  const b = normalize(to);
  const d = dot(a, b);
  if (d < -0.9999) {
    const axis = Math.abs(a[0]) < 0.9 ? cross(a, [1, 0, 0]) : cross(a, [0, 1, 0]);
    return axisAngle(axis, Math.PI);
  }
  const c = cross(a, b);
  return normalizeQ([c[0], c[1], c[2], 1 + d]);
}

/**
 * `q` or its negation (the same rotation), whichever lies in the hemisphere of the quaternion at `at` in `near`
 * (xyzw): between neighbouring keys chosen so, linear interpolation takes the short way. `q` when there is no `near`.
 */
export function sameHemisphere(q: ArrayLike<number>, near: ArrayLike<number> | undefined, at = 0): Quat {
  const [x, y, z, w] = [q[0]!, q[1]!, q[2]!, q[3]!];
  if (near !== undefined && x * near[at]! + y * near[at + 1]! + z * near[at + 2]! + w * near[at + 3]! < 0)
    return [-x, -y, -z, -w];
  return [x, y, z, w];
}

/**
 * The key times of a clip `seconds` long sampled `fps` times a second: its two ends at least (at most `maxKeys`
 * keys), evenly spaced from 0 to `seconds`.
 */
export function keyTimes(seconds: number, fps: number, maxKeys = Infinity): number[] {
  const count = Math.min(maxKeys, Math.max(2, Math.round(seconds * fps) + 1));
  return Array.from({ length: count }, (_, k) => (k / (count - 1)) * seconds);
}

export function normalizeQ(q: Quat): Quat {
  const n = Math.hypot(...q) || 1;
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

export const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: V3, k: number): V3 => [a[0] * k, a[1] * k, a[2] * k];
export const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const normalize = (a: V3): V3 => scale(a, 1 / (Math.hypot(...a) || 1));

/** Row-major 3×3 rotation of a unit quaternion. */
export function rotationMatrix([x, y, z, w]: Quat): number[][] {
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

/** Column-major inverse of the rigid transform (rotation r, then translation t). */
export function inverseRigid(r: Quat, t: V3): number[] {
  const R = rotationMatrix(r);
  const inv = (i: number, j: number) => R[j]![i]!; // Rᵀ
  const tt = [0, 1, 2].map((i) => -(inv(i, 0) * t[0] + inv(i, 1) * t[1] + inv(i, 2) * t[2]));
  // Column-major: column j holds row entries inv(0..2, j).
  return [
    inv(0, 0),
    inv(1, 0),
    inv(2, 0),
    0,
    inv(0, 1),
    inv(1, 1),
    inv(2, 1),
    0,
    inv(0, 2),
    inv(1, 2),
    inv(2, 2),
    0,
    tt[0]!,
    tt[1]!,
    tt[2]!,
    1,
  ];
}

/** Column-major 4×4 of the rigid transform: rotate by r, then move by t. */
export function compose(t: V3, r: Quat): number[] {
  const R = rotationMatrix(normalizeQ(r));
  return [
    R[0]![0]!,
    R[1]![0]!,
    R[2]![0]!,
    0,
    R[0]![1]!,
    R[1]![1]!,
    R[2]![1]!,
    0,
    R[0]![2]!,
    R[1]![2]!,
    R[2]![2]!,
    0,
    t[0],
    t[1],
    t[2],
    1,
  ];
}

/** Inverse of a column-major rigid matrix. */
export function invertRigid(m: number[]): number[] {
  const out = new Array<number>(16).fill(0);
  for (let row = 0; row < 3; row++) for (let c = 0; c < 3; c++) out[c * 4 + row] = m[row * 4 + c]!;
  for (let row = 0; row < 3; row++)
    out[12 + row] = -(out[row]! * m[12]! + out[4 + row]! * m[13]! + out[8 + row]! * m[14]!);
  out[15] = 1;
  return out;
}

/** Each bone's rest transform in its parent (a root's is its world one), from the bones' world rest transforms. */
export function localRest(bones: readonly { parent: number; t: V3; r: Quat }[]): { t: V3; r: Quat }[] {
  return bones.map((b) => {
    if (b.parent < 0) return { t: b.t, r: b.r };
    const p = bones[b.parent]!;
    return { t: rotate(conj(p.r), sub(b.t, p.t)), r: normalizeQ(mul(conj(p.r), b.r)) };
  });
}

/**
 * The rotation whose x axis is `primary` and whose y axis is `secondary` made square to it (z = x × y): the
 * orientation of a frame given by two directions, e.g. along a bone and across it (its hinge axis).
 */
export function basisQuat(primary: V3, secondary: V3): Quat {
  const x = normalize(primary);
  const z = normalize(cross(x, secondary));
  const y = cross(z, x);
  // The quaternion of the matrix with columns x, y, z (Shepperd's method).
  const [m00, m10, m20] = x;
  const [m01, m11, m21] = y;
  const [m02, m12, m22] = z;
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  return normalizeQ(q);
}
