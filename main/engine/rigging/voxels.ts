// The body as a solid voxel grid (as in geodesic voxel binding, Dionne and de Lasa 2013): the surface's
// triangles rasterised into voxels, and the inside found as what a flood fill from outside the box does not
// reach, so a hole smaller than a voxel does not empty a body. The joint finder reads its horizontal
// cross-sections (body.ts) and the skin weights ask it whether a straight line from a vertex to a bone stays
// inside the body (heat.ts: a hand's vertex does not see the thigh it hangs beside).
import type { V3 } from '../../formats/character.ts';

export interface Voxels {
  /** Voxels along x, y, z. */
  nx: number;
  ny: number;
  nz: number;
  /** The world position of voxel (0, 0, 0)'s corner, and a voxel's side. */
  origin: V3;
  size: number;
  /** 1 on the surface, 2 inside, 0 outside; voxel (x, y, z) at x + nx·(z + nz·y) (a horizontal layer is contiguous). */
  cells: Uint8Array;
}

/** The longest side of the box in voxels (plus a margin of two each side). */
const RESOLUTION = 110;
const MARGIN = 2;

export const cellIndex = (v: Voxels, x: number, y: number, z: number): number => x + v.nx * (z + v.nz * y);

/** The solid grid of a triangle mesh (positions xyz, triangles as index triples). */
export function voxelize(positions: ArrayLike<number>, triangles: ArrayLike<number>): Voxels {
  const min: V3 = [Infinity, Infinity, Infinity];
  const max: V3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, positions[i + k]!);
      max[k] = Math.max(max[k]!, positions[i + k]!);
    }
  const size = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2], 1e-9) / RESOLUTION;
  const n = [0, 1, 2].map((k) => Math.ceil((max[k]! - min[k]!) / size) + 1 + 2 * MARGIN) as V3;
  const origin: V3 = [min[0] - MARGIN * size, min[1] - MARGIN * size, min[2] - MARGIN * size];
  const v: Voxels = { nx: n[0], ny: n[1], nz: n[2], origin, size, cells: new Uint8Array(n[0] * n[1] * n[2]) };
  const mark = (x: number, y: number, z: number) => {
    const i = Math.floor((x - origin[0]) / size);
    const j = Math.floor((y - origin[1]) / size);
    const k = Math.floor((z - origin[2]) / size);
    v.cells[cellIndex(v, i, j, k)] = 1;
  };
  const p = positions;
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = triangles[t]! * 3;
    const b = triangles[t + 1]! * 3;
    const c = triangles[t + 2]! * 3;
    const longest = Math.max(
      Math.hypot(p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!),
      Math.hypot(p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!),
      Math.hypot(p[c]! - p[b]!, p[c + 1]! - p[b + 1]!, p[c + 2]! - p[b + 2]!),
    );
    // Samples half a voxel apart at most, so no voxel the triangle crosses is skipped.
    const steps = Math.max(1, Math.ceil(longest / (0.5 * size)));
    for (let i = 0; i <= steps; i++)
      for (let j = 0; i + j <= steps; j++) {
        const u = i / steps;
        const w = j / steps;
        const r = 1 - u - w;
        mark(
          r * p[a]! + u * p[b]! + w * p[c]!,
          r * p[a + 1]! + u * p[b + 1]! + w * p[c + 1]!,
          r * p[a + 2]! + u * p[b + 2]! + w * p[c + 2]!,
        );
      }
  }
  fillInside(v);
  return v;
}

/** Marks 2 every voxel that a 6-connected flood fill from the grid's corner (outside) does not reach. */
function fillInside(v: Voxels): void {
  const outside = new Uint8Array(v.cells.length);
  const queue = new Int32Array(v.cells.length);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  outside[0] = 1;
  const strideZ = v.nx;
  const strideY = v.nx * v.nz;
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % v.nx;
    const z = Math.floor(i / strideZ) % v.nz;
    const y = Math.floor(i / strideY);
    const visit = (j: number) => {
      if (outside[j] === 0 && v.cells[j] === 0) {
        outside[j] = 1;
        queue[tail++] = j;
      }
    };
    if (x > 0) visit(i - 1);
    if (x < v.nx - 1) visit(i + 1);
    if (z > 0) visit(i - strideZ);
    if (z < v.nz - 1) visit(i + strideZ);
    if (y > 0) visit(i - strideY);
    if (y < v.ny - 1) visit(i + strideY);
  }
  for (let i = 0; i < v.cells.length; i++) if (v.cells[i] === 0 && outside[i] === 0) v.cells[i] = 2;
}

/** The voxel holding a world point, or -1 outside the grid. */
export function cellOf(v: Voxels, p: V3): number {
  const i = Math.floor((p[0] - v.origin[0]) / v.size);
  const j = Math.floor((p[1] - v.origin[1]) / v.size);
  const k = Math.floor((p[2] - v.origin[2]) / v.size);
  if (i < 0 || j < 0 || k < 0 || i >= v.nx || j >= v.ny || k >= v.nz) return -1;
  return cellIndex(v, i, j, k);
}

/** The centre of a voxel, world space. */
export function centreOf(v: Voxels, cell: number): V3 {
  const x = cell % v.nx;
  const z = Math.floor(cell / v.nx) % v.nz;
  const y = Math.floor(cell / (v.nx * v.nz));
  return [v.origin[0] + (x + 0.5) * v.size, v.origin[1] + (y + 0.5) * v.size, v.origin[2] + (z + 0.5) * v.size];
}

/** Whether the straight line from a to b stays in the body (its surface or inside), sampled every half voxel. */
export function staysInside(v: Voxels, a: V3, b: V3): boolean {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const steps = Math.ceil(length / (0.5 * v.size));
  for (let s = 1; s < steps; s++) {
    const t = s / steps;
    const cell = cellOf(v, [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])]);
    if (cell < 0 || v.cells[cell] === 0) return false;
  }
  return true;
}
