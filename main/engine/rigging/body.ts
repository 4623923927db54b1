// Where a standing body's joints are, found from its solid voxels (voxels.ts) by cross-sections (sections.ts):
// two feet on the floor, each leg followed up until both become one body (the crotch), the body followed
// up to the top of the head, the neck where the body is narrowest below the head, and each arm as the
// farthest reach of the body from its shoulder, measured inside the body (a geodesic in the voxels, as in
// Dionne and de Lasa's voxel binding), with elbow and wrist at the middle of the arm's cross-section at a
// person's proportions along it. What is not a humanoid standing upright is refused with why (NotHumanoid).
import type { V3 } from '../../formats/character.ts';
import { type Piece, Sections } from './sections.ts';
import { cellIndex, cellOf, type Voxels } from './voxels.ts';

export interface Limb {
  hip: V3;
  knee: V3;
  ankle: V3;
  toe: V3;
  /** Where the collarbone starts, beside the top of the spine. */
  clavicle: V3;
  shoulder: V3;
  elbow: V3;
  wrist: V3;
  fingertip: V3;
}

export interface Body {
  /** Unit vectors: the body's left side and the way it faces. */
  left: V3;
  forward: V3;
  floor: number;
  height: number;
  pelvis: V3;
  spine: V3;
  neck: V3;
  head: V3;
  headTop: V3;
  L: Limb;
  R: Limb;
}

/** Why a mesh is not rigged: completes "<the upload> is not a humanoid standing upright, so …". */
export class NotHumanoid extends Error {}

const SHAPE_HELP =
  'The local engine rigs one humanoid standing upright (+Y up, on two feet apart, arms away from the body); rig other models yourself (e.g. with Mixamo or Blender) and upload the rigged FBX';

const refuse = (why: string): never => {
  throw new NotHumanoid(`is not a humanoid standing upright, so the local engine cannot rig it: ${why}. ${SHAPE_HELP}`);
};

const metres = (x: number) => `${x.toFixed(2)}`;

/** The joints of the body made of `v` (its mesh's positions give the floor and the top). */
export function findBody(v: Voxels, positions: ArrayLike<number>): Body {
  const lo: V3 = [Infinity, Infinity, Infinity];
  const hi: V3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3)
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k]!, positions[i + k]!);
      hi[k] = Math.max(hi[k]!, positions[i + k]!);
    }
  const floor = lo[1];
  const h = hi[1] - lo[1];
  const wide = Math.max(hi[0] - lo[0], hi[2] - lo[2]);
  if (!(h > 0) || h < 0.5 * wide)
    refuse(
      `it lies down or is flat: ${metres(hi[0] - lo[0])} × ${metres(hi[2] - lo[2])} across and only ${metres(h)} tall (+Y up). Stand it up in your 3D tool`,
    );
  const s = new Sections(v);
  const at = (y: number) => s.layerOf(y);

  // ---- two feet on the floor ----
  const footLayer = Math.max(at(floor + 0.03 * h), at(floor) + 1);
  const all = s.at(footLayer).pieces;
  const largest = Math.max(0, ...all.map((p) => p.cells.length));
  const feet = all.filter((p) => p.cells.length >= Math.max(2, 0.05 * largest));
  if (feet.length === 1)
    refuse(
      'it stands on one piece where a standing body has two feet apart (a bust, an object, or a figure with its feet together or in a long dress)',
    );
  if (feet.length !== 2)
    refuse(`it stands on ${feet.length} separate pieces (like a chair's or a table's legs) where a body has two feet`);

  // ---- each leg up from its foot until both are one body: the crotch ----
  const legs: Piece[][] = [[feet[0]!], [feet[1]!]];
  let crotch = -1;
  let joined: Piece | undefined;
  for (let y = footLayer + 1; y < v.ny; y++) {
    const a = s.follow(legs[0]!.at(-1)!, y);
    const b = s.follow(legs[1]!.at(-1)!, y);
    if (a === undefined || b === undefined) refuse('one of its two lowest parts ends before reaching a body');
    if (a === b) {
      crotch = y;
      joined = a;
      break;
    }
    legs[0]!.push(a!);
    legs[1]!.push(b!);
  }
  if (joined === undefined) refuse('its two lowest parts never join into one body');
  const crotchY = s.heightOf(crotch);
  if (crotchY - floor < 0.15 * h || crotchY - floor > 0.7 * h)
    refuse(
      `its two lowest parts join at ${Math.round((100 * (crotchY - floor)) / h)}% of its height, where a body's legs join at about half of it`,
    );
  const legAt = (leg: number, y: number): Piece =>
    legs[leg]![Math.max(0, Math.min(legs[leg]!.length - 1, y - footLayer))]!;

  // ---- which way it faces: the feet reach forward of the shins ----
  const across = norm([feet[1]!.x - feet[0]!.x, 0, feet[1]!.z - feet[0]!.z]);
  let forward: V3 = [-across[2], 0, across[0]];
  const shin = at(floor + 0.12 * h);
  let reach = 0;
  for (const leg of [0, 1]) {
    const foot = legAt(leg, footLayer);
    const above = legAt(leg, shin);
    reach += (foot.x - above.x) * forward[0] + (foot.z - above.z) * forward[2];
  }
  if (Math.abs(reach) / 2 > 0.01 * h) forward = reach > 0 ? forward : neg(forward);
  else if (forward[2] < -1e-6 || (Math.abs(forward[2]) <= 1e-6 && forward[0] < 0)) forward = neg(forward); // +Z, as most characters face
  const left: V3 = [forward[2], 0, -forward[0]];
  const side = (p: Piece) => p.x * left[0] + p.z * left[2];
  const leftLeg = side(feet[0]!) > side(feet[1]!) ? 0 : 1;

  // ---- the body up from the crotch to the top of its head ----
  const body: Piece[] = [joined!];
  for (let y = crotch + 1; y < v.ny; y++) {
    const next = s.follow(body.at(-1)!, y);
    if (next === undefined) break;
    body.push(next);
  }
  const topLayer = crotch + body.length - 1;
  const bodyAt = (y: number) => body[Math.max(0, Math.min(body.length - 1, y - crotch))]!;
  const width = (y: number) => {
    const [a, b] = s.extent(bodyAt(y), left);
    return b - a + v.size;
  };
  const span = topLayer - crotch;
  let neckLayer = crotch + Math.round(0.45 * span);
  for (let y = neckLayer; y <= topLayer - Math.round(0.12 * span); y++) if (width(y) < width(neckLayer)) neckLayer = y;
  const headWidth = Math.max(...range(neckLayer + 1, topLayer).map(width));
  const shoulderWidth = Math.max(...range(crotch, neckLayer - 1).map(width));
  const neckWidth = width(neckLayer);
  if (!(neckWidth < 0.85 * headWidth || headWidth < 0.75 * shoulderWidth))
    refuse(
      'nothing narrows into a neck under its top, and its top is as wide as what is under it, where a body has a head',
    );
  const pointOn = (p: Piece, y: number): V3 => [p.x, y, p.z];
  const hipsMid = (side(legAt(0, crotch - 1)) + side(legAt(1, crotch - 1))) / 2;
  const head = bodyAt(topLayer - Math.round(0.1 * span));
  if (Math.abs(side(head) - hipsMid) > 0.2 * h) refuse('its top is not above the middle of its two lowest parts');

  // ---- spine and head ----
  const crotchW = s.heightOf(crotch);
  const neckW = s.heightOf(neckLayer);
  const top = Math.min(hi[1], s.heightOf(topLayer) + 0.5 * v.size);
  const headBase = neckW + 0.3 * (top - neckW);
  const spineY = crotchW + 0.4 * (neckW - crotchW);
  const hipY = crotchW + 0.08 * (neckW - crotchW);

  // ---- legs: hip just above the crotch, ankle just above the floor, knee half way ----
  const ankleY = floor + 0.045 * h;
  const limb = (leg: number, sign: 1 | -1): Limb => {
    const thigh = legAt(leg, crotch - 1);
    const kneeY = ankleY + 0.5 * (hipY - ankleY);
    const foot = legAt(leg, footLayer);
    let toe = s.pointOf(footLayer, foot.cells[0]!);
    for (const c of foot.cells) {
      const p = s.pointOf(footLayer, c);
      if (dot(p, forward) > dot(toe, forward)) toe = p;
    }
    toe[1] = floor + 0.02 * h;
    const arm = findArm(v, s, {
      sign,
      left,
      hipsMid,
      crotch,
      neckLayer,
      chest: bodyAt(crotch + Math.round(0.6 * (neckLayer - crotch))),
      legs,
      footLayer,
      h,
    });
    return {
      hip: [thigh.x, hipY, thigh.z],
      knee: pointOn(legAt(leg, at(kneeY)), kneeY),
      ankle: pointOn(legAt(leg, at(floor + 0.08 * h)), ankleY),
      toe,
      ...arm,
    };
  };
  const L = limb(leftLeg, 1);
  const R = limb(1 - leftLeg, -1);
  const pelvis: V3 = [(L.hip[0] + R.hip[0]) / 2, hipY + 0.03 * h, (L.hip[2] + R.hip[2]) / 2];
  const headPiece = bodyAt(at(headBase));
  return {
    left,
    forward,
    floor,
    height: h,
    pelvis,
    spine: pointOn(bodyAt(at(spineY)), spineY),
    neck: pointOn(bodyAt(neckLayer), neckW),
    head: pointOn(headPiece, headBase),
    headTop: pointOn(headPiece, top),
    L,
    R,
  };
}

interface ArmSearch {
  sign: 1 | -1;
  left: V3;
  hipsMid: number;
  crotch: number;
  neckLayer: number;
  /** The body's cross-section at the chest, where arms away from the body are apart from it. */
  chest: Piece;
  legs: Piece[][];
  footLayer: number;
  h: number;
}

/** Human proportions along the arm from the shoulder to the fingertips: the elbow and the wrist. */
const ELBOW_AT = 0.42;
const WRIST_AT = 0.75;

/** One arm: the body's farthest reach (inside the voxels) from the shoulder, out on its side. */
function findArm(
  v: Voxels,
  s: Sections,
  a: ArmSearch,
): Pick<Limb, 'clavicle' | 'shoulder' | 'elbow' | 'wrist' | 'fingertip'> {
  const { sign, left, h } = a;
  const name = sign > 0 ? 'left' : 'right';
  const [lo, hi] = s.extent(a.chest, left);
  const half = Math.min(0.25 * h, Math.max(v.size, sign > 0 ? hi - a.hipsMid : a.hipsMid - lo));
  const neckY = s.heightOf(a.neckLayer);
  const shoulderY = neckY - 0.15 * (neckY - s.heightOf(a.crotch));
  const lateral = a.hipsMid + sign * 0.85 * half;
  const depth = a.chest.x * -left[2] + a.chest.z * left[0]; // the chest's centre along the way it faces
  const forward: V3 = [-left[2], 0, left[0]];
  const at = (l: number, y: number, f: number): V3 => [left[0] * l + forward[0] * f, y, left[2] * l + forward[2] * f];
  // Sloping shoulders: down from there until the point is in the body (not above its shoulder, in the air).
  let shoulder = at(lateral, shoulderY, depth);
  const chestY = s.heightOf(a.crotch) + 0.6 * (neckY - s.heightOf(a.crotch));
  for (let y = shoulderY; y > chestY; y -= v.size) {
    const cell = cellOf(v, at(lateral, y, depth));
    if (cell >= 0 && v.cells[cell] !== 0) {
      if (y < shoulderY) shoulder = at(lateral, Math.max(chestY, y - 0.025 * h), depth); // inside, not on its surface
      break;
    }
  }
  // The arm's region: out beyond most of the chest on this side, not a leg (a hand hanging beside the thigh).
  const legCells = new Set<number>();
  for (const leg of a.legs)
    for (const [k, piece] of leg.entries())
      for (const c of piece.cells) legCells.add(cellIndex(v, 0, a.footLayer + k, 0) + c);
  const lowest = s.layerOf(s.heightOf(a.crotch) - 0.25 * h);
  const area = v.nx * v.nz;
  const inRegion = (cell: number): boolean => {
    if (v.cells[cell] === 0 || legCells.has(cell)) return false;
    const y = Math.floor(cell / area);
    if (y < lowest) return false;
    const x = v.origin[0] + ((cell % v.nx) + 0.5) * v.size;
    const z = v.origin[2] + ((Math.floor(cell / v.nx) % v.nz) + 0.5) * v.size;
    return sign * (x * left[0] + z * left[2] - a.hipsMid) >= 0.7 * half;
  };
  // The seed: the region's cell nearest the shoulder.
  let seed = -1;
  let best = Infinity;
  const r = Math.ceil((0.12 * h) / v.size);
  const [cx, cy, cz] = [0, 1, 2].map((k) => Math.floor((shoulder[k]! - v.origin[k]!) / v.size)) as V3;
  for (let y = Math.max(0, cy - r); y <= Math.min(v.ny - 1, cy + r); y++)
    for (let z = Math.max(0, cz - r); z <= Math.min(v.nz - 1, cz + r); z++)
      for (let x = Math.max(0, cx - r); x <= Math.min(v.nx - 1, cx + r); x++) {
        const cell = cellIndex(v, x, y, z);
        const d = (x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2;
        if (d < best && inRegion(cell)) {
          best = d;
          seed = cell;
        }
      }
  if (seed < 0) refuse(`nothing of it is beside its ${name} shoulder, where a body has an arm`);
  // Distances inside the region from the seed (26-connected steps), and the way back.
  const dist = new Map<number, number>([[seed, 0]]);
  const parent = new Map<number, number>();
  const queue = [seed];
  let far = seed;
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head]!;
    const d = dist.get(c)!;
    if (d > dist.get(far)!) far = c;
    const x = c % v.nx;
    const z = Math.floor(c / v.nx) % v.nz;
    const y = Math.floor(c / area);
    for (let dy = -1; dy <= 1; dy++)
      for (let dz = -1; dz <= 1; dz++)
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny, nz] = [x + dx, y + dy, z + dz];
          if (nx < 0 || ny < 0 || nz < 0 || nx >= v.nx || ny >= v.ny || nz >= v.nz) continue;
          const n = cellIndex(v, nx, ny, nz);
          if (dist.has(n) || !inRegion(n)) continue;
          dist.set(n, d + 1);
          parent.set(n, c);
          queue.push(n);
        }
  }
  const centre = (cell: number): V3 => [
    v.origin[0] + ((cell % v.nx) + 0.5) * v.size,
    v.origin[1] + (Math.floor(cell / area) + 0.5) * v.size,
    v.origin[2] + ((Math.floor(cell / v.nx) % v.nz) + 0.5) * v.size,
  ];
  const fingertip = centre(far);
  if (length(sub(fingertip, shoulder)) < 0.12 * h)
    refuse(`nothing reaches out from its ${name} shoulder, where a body has an arm`);
  if (fingertip[1] > neckY)
    refuse(
      `what reaches farthest from its ${name} shoulder goes up past its neck (like a chair's back), where a standing body's arm hangs down or reaches out to the side (arms raised over the head are not a rest pose)`,
    );
  const path: number[] = [];
  for (let c: number | undefined = far; c !== undefined; c = parent.get(c)) path.push(c);
  path.reverse(); // path[d]: the cell at distance d from the shoulder
  const reach = path.length - 1;
  /** The middle of the arm's cross-section at a share of its length: the cells as far from the shoulder, near the path. */
  const along = (share: number): V3 => {
    const d = Math.round(share * reach);
    const p = centre(path[d]!);
    const near = 0.08 * h;
    const sum: V3 = [0, 0, 0];
    let n = 0;
    for (const [cell, cd] of dist) {
      if (Math.abs(cd - d) > 1) continue;
      const q = centre(cell);
      if (length(sub(q, p)) > near) continue;
      for (let k = 0; k < 3; k++) sum[k]! += q[k]!;
      n++;
    }
    return n === 0 ? p : [sum[0] / n, sum[1] / n, sum[2] / n];
  };
  return {
    clavicle: at(a.hipsMid + sign * 0.2 * half, Math.max(shoulder[1], shoulderY) + 0.02 * h, depth),
    shoulder,
    elbow: along(ELBOW_AT),
    wrist: along(WRIST_AT),
    fingertip,
  };
}

const range = (a: number, b: number) => (b < a ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i));
const norm = (a: V3): V3 => {
  const l = Math.hypot(...a) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
const neg = (a: V3): V3 => [-a[0], -a[1], -a[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const length = (a: V3) => Math.hypot(a[0], a[1], a[2]);
