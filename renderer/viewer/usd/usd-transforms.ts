// The transforms of a USD stage: 4×4 matrices (column vectors, row-major Float64Array), a prim's xformOps composed
// into its local matrix (with !resetXformStack), and the turn of a Z-up stage to Y up. Used by usd-meshes.ts.
import { UsdError, type UsdPrim, type UsdValue } from './usda-parse.ts';

export type Mat = Float64Array;

export const identity = (): Mat => new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

export function mul(a: Mat, b: Mat): Mat {
  const o = new Float64Array(16);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[r * 4 + k]! * b[k * 4 + c]!;
      o[r * 4 + c] = s;
    }
  return o;
}

export function invert(m: Mat): Mat {
  // Gauss-Jordan on [m | I].
  const a = Array.from(m);
  const inv = Array.from(identity());
  for (let c = 0; c < 4; c++) {
    let pivot = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[r * 4 + c]!) > Math.abs(a[pivot * 4 + c]!)) pivot = r;
    const p = a[pivot * 4 + c]!;
    if (Math.abs(p) < 1e-300) return identity();
    for (let k = 0; k < 4; k++) {
      [a[c * 4 + k], a[pivot * 4 + k]] = [a[pivot * 4 + k]!, a[c * 4 + k]!];
      [inv[c * 4 + k], inv[pivot * 4 + k]] = [inv[pivot * 4 + k]!, inv[c * 4 + k]!];
    }
    for (let k = 0; k < 4; k++) {
      a[c * 4 + k]! /= p;
      inv[c * 4 + k]! /= p;
    }
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = a[r * 4 + c]!;
      if (f === 0) continue;
      for (let k = 0; k < 4; k++) {
        a[r * 4 + k]! -= f * a[c * 4 + k]!;
        inv[r * 4 + k]! -= f * inv[c * 4 + k]!;
      }
    }
  }
  return new Float64Array(inv);
}

export function det3(m: Mat): number {
  return (
    m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) -
    m[1]! * (m[4]! * m[10]! - m[6]! * m[8]!) +
    m[2]! * (m[4]! * m[9]! - m[5]! * m[8]!)
  );
}

const translation = (t: number[]): Mat => {
  const m = identity();
  m[12] = t[0] ?? 0;
  m[13] = t[1] ?? 0;
  m[14] = t[2] ?? 0;
  return m;
};
export const scaling = (s: number[]): Mat => {
  const m = identity();
  m[0] = s[0] ?? 1;
  m[5] = s[1] ?? s[0] ?? 1;
  m[10] = s[2] ?? s[0] ?? 1;
  return m;
};

function rotation(axis: 'X' | 'Y' | 'Z', degrees: number): Mat {
  const r = (degrees * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  const m = identity();
  // Row-vector forms (the transposes of the usual column-vector matrices).
  if (axis === 'X') [m[5], m[6], m[9], m[10]] = [c, s, -s, c];
  else if (axis === 'Y') [m[0], m[2], m[8], m[10]] = [c, -s, s, c];
  else [m[0], m[1], m[4], m[5]] = [c, s, -s, c];
  return m;
}

/** A USD quaternion (real, i, j, k) as a row-vector rotation matrix. */
function quaternion(q: number[]): Mat {
  let [w = 1, x = 0, y = 0, z = 0] = q;
  const n = Math.hypot(w, x, y, z) || 1;
  [w, x, y, z] = [w / n, x / n, y / n, z / n];
  const m = identity();
  m[0] = 1 - 2 * (y * y + z * z);
  m[1] = 2 * (x * y + w * z);
  m[2] = 2 * (x * z - w * y);
  m[4] = 2 * (x * y - w * z);
  m[5] = 1 - 2 * (x * x + z * z);
  m[6] = 2 * (y * z + w * x);
  m[8] = 2 * (x * z + w * y);
  m[9] = 2 * (y * z - w * x);
  m[10] = 1 - 2 * (x * x + y * y);
  return m;
}

/** Numbers of a value, flattened ((1, 2, 3), (4, 5, 6) → 1…6); non-numbers are left out. */
export function flat(v: UsdValue | undefined, out: number[] = []): number[] {
  if (typeof v === 'number') out.push(v);
  else if (Array.isArray(v)) for (const x of v) flat(x, out);
  return out;
}

/** One xformOp's matrix, from its name (xformOp:<type>[:<suffix>]) and value. */
function opMatrix(name: string, value: UsdValue | undefined): Mat {
  const type = name.split(':')[1] ?? '';
  const n = flat(value);
  if (type === 'translate') return translation(n);
  if (type === 'scale') return scaling(n);
  if (type === 'orient') return quaternion(n);
  if (type === 'transform') return n.length === 16 ? new Float64Array(n) : identity();
  const rot = /^rotate([XYZ]{1,3})$/.exec(type);
  if (rot) {
    const axes = rot[1]!.split('') as ('X' | 'Y' | 'Z')[];
    // A single-axis op has one angle; a three-axis op's value is always (x, y, z), applied in the name's order.
    const angle = (a: 'X' | 'Y' | 'Z') => (axes.length === 1 ? (n[0] ?? 0) : (n['XYZ'.indexOf(a)] ?? 0));
    return axes.map((a) => rotation(a, angle(a))).reduce(mul);
  }
  return identity();
}

/** The prim's local transform and whether it resets its parents' (!resetXformStack!). */
export function localTransform(prim: UsdPrim): { matrix: Mat; reset: boolean } {
  const order = prim.attributes.get('xformOpOrder')?.value;
  let matrix = identity();
  let reset = false;
  if (!Array.isArray(order)) return { matrix, reset };
  // Row vectors: the first op in the order is applied last (p · op[n-1] · … · op[0]).
  for (const entry of order) {
    if (typeof entry !== 'string') continue;
    if (entry === '!resetXformStack!') {
      reset = true;
      matrix = identity();
      continue;
    }
    const inverse = entry.startsWith('!invert!');
    const name = inverse ? entry.slice('!invert!'.length) : entry;
    const attr = prim.attributes.get(name);
    if (!attr) throw new UsdError(`The prim ${prim.path} lists the transform ${name}, which it does not have.`);
    const m = opMatrix(name, attr.value);
    matrix = mul(inverse ? invert(m) : m, matrix);
  }
  return { matrix, reset };
}

// Z up → Y up, a rotation of -90° about X: (x, y, z) → (x, z, -y).
export const Z_TO_Y = new Float64Array([1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1]);
