// The angle between two unit quaternions stored in flat arrays (xyzw), radians.
export function quatAngle(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number {
  const d = Math.abs(a[i]! * b[j]! + a[i + 1]! * b[j + 1]! + a[i + 2]! * b[j + 2]! + a[i + 3]! * b[j + 3]!);
  return 2 * Math.acos(Math.min(1, d));
}
