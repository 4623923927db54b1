// How far apart two surfaces are: the symmetric Hausdorff distance, sampled. Points are spread over each
// surface by area (plus its vertices), and each point's distance to the other surface is exact (closest
// point on a triangle, found through a bounding-volume hierarchy). Used by the tests (the result lies on
// the input's surface) and by bench/retopology (the geometric error of our result and of another tool's).
import { type FaceMesh, faceTriangles } from '../../mesh/mesh.ts';
import { triangleCross } from '../../../shared/vectors.ts';

/** A triangle surface: xyz per vertex, three indices per triangle. */
export interface Surface {
  positions: Float32Array;
  triangles: Uint32Array;
}

export interface SurfaceDistance {
  /** Largest distance from a point of A to B. */
  aToB: number;
  /** Largest distance from a point of B to A. */
  bToA: number;
  /** The symmetric Hausdorff distance: the larger of the two. */
  hausdorff: number;
  /** Mean distances, each way. */
  meanAToB: number;
  meanBToA: number;
}

/** A result's faces as triangles (each quad split along a diagonal: it is planar within the pairing's fold limit). */
export function surfaceOf(mesh: FaceMesh): Surface {
  return { positions: mesh.positions, triangles: faceTriangles(mesh) };
}

/** The sampled symmetric Hausdorff distance between `a` and `b`, with about `samples` points on each (b's index may be given, built once for several a). */
export function surfaceDistance(
  a: Surface,
  b: Surface,
  samples = 50_000,
  indexOfB: SurfaceIndex = new SurfaceIndex(b),
): SurfaceDistance {
  const there = oneWay(a, indexOfB, samples);
  const back = oneWay(b, new SurfaceIndex(a), samples);
  return {
    aToB: there.max,
    bToA: back.max,
    hausdorff: Math.max(there.max, back.max),
    meanAToB: there.mean,
    meanBToA: back.mean,
  };
}

/** The largest and the mean distance from points of `from` (its vertices and `samples` more) to the surface `to` indexes. */
export function oneWay(from: Surface, to: SurfaceIndex, samples: number): { max: number; mean: number } {
  const points = samplePoints(from, samples);
  let max = 0;
  let sum = 0;
  const count = points.length / 3;
  for (let i = 0; i < count; i++) {
    const d = to.distance(points[i * 3]!, points[i * 3 + 1]!, points[i * 3 + 2]!);
    if (d > max) max = d;
    sum += d;
  }
  return { max, mean: count > 0 ? sum / count : 0 };
}

/** The surface's vertices used by its triangles, and `count` points spread by area (a fixed seed: the same each run). */
export function samplePoints(surface: Surface, count: number): Float64Array {
  const { positions: p, triangles: t } = surface;
  const triangleCount = t.length / 3;
  const cumulative = new Float64Array(triangleCount);
  let total = 0;
  for (let i = 0; i < triangleCount; i++) {
    total += triangleArea(p, t[i * 3]!, t[i * 3 + 1]!, t[i * 3 + 2]!);
    cumulative[i] = total;
  }
  const used = new Uint8Array(p.length / 3);
  for (const v of t) used[v] = 1;
  const vertexCount = used.reduce((sum, u) => sum + u, 0);
  const out = new Float64Array((vertexCount + (total > 0 ? count : 0)) * 3);
  let n = 0;
  for (let v = 0; v < used.length; v++) {
    if (!used[v]) continue;
    out[n++] = p[v * 3]!;
    out[n++] = p[v * 3 + 1]!;
    out[n++] = p[v * 3 + 2]!;
  }
  if (total === 0) return out;
  let state = 0x2545f491;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (let s = 0; s < count; s++) {
    const target = random() * total;
    let lo = 0;
    let hi = triangleCount - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    let r1 = random();
    let r2 = random();
    if (r1 + r2 > 1) {
      r1 = 1 - r1;
      r2 = 1 - r2;
    }
    const [a, b, c] = [t[lo * 3]!, t[lo * 3 + 1]!, t[lo * 3 + 2]!];
    for (let k = 0; k < 3; k++)
      out[n++] = p[a * 3 + k]! + r1 * (p[b * 3 + k]! - p[a * 3 + k]!) + r2 * (p[c * 3 + k]! - p[a * 3 + k]!);
  }
  return out;
}

function triangleArea(p: Float32Array, a: number, b: number, c: number): number {
  return 0.5 * Math.hypot(...triangleCross(p, a, b, c));
}

const LEAF_SIZE = 4;

/** A bounding-volume hierarchy over a surface's triangles, for the distance from a point to the surface. */
export class SurfaceIndex {
  private readonly p: Float32Array;
  private readonly t: Uint32Array;
  /** Triangle ids, reordered so each node's triangles are contiguous. */
  private readonly order: Uint32Array;
  /** Per node: min xyz, max xyz. */
  private readonly boxes: number[] = [];
  /** Per node: first child (inner) or first triangle (leaf), and the count of triangles (0 for inner nodes). */
  private readonly first: number[] = [];
  private readonly count: number[] = [];
  /** Per inner node: its second child. */
  private readonly right: number[] = [];

  constructor(surface: Surface) {
    this.p = surface.positions;
    this.t = surface.triangles;
    const n = this.t.length / 3;
    this.order = Uint32Array.from({ length: n }, (_, i) => i);
    const centroids = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++)
        centroids[i * 3 + k] =
          (this.p[this.t[i * 3]! * 3 + k]! +
            this.p[this.t[i * 3 + 1]! * 3 + k]! +
            this.p[this.t[i * 3 + 2]! * 3 + k]!) /
          3;
    }
    if (n > 0) this.build(centroids, 0, n);
  }

  /** Builds the node of triangles order[start, end) and returns its index. */
  private build(centroids: Float64Array, start: number, end: number): number {
    const node = this.first.length;
    this.first.push(0);
    this.count.push(0);
    this.right.push(0);
    const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    const centre = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (let i = start; i < end; i++) {
      const tri = this.order[i]!;
      for (let c = 0; c < 3; c++) {
        const v = this.t[tri * 3 + c]!;
        for (let k = 0; k < 3; k++) {
          const x = this.p[v * 3 + k]!;
          if (x < box[k]!) box[k] = x;
          if (x > box[3 + k]!) box[3 + k] = x;
        }
      }
      for (let k = 0; k < 3; k++) {
        const x = centroids[tri * 3 + k]!;
        if (x < centre[k]!) centre[k] = x;
        if (x > centre[3 + k]!) centre[3 + k] = x;
      }
    }
    this.boxes.push(...box);
    const size = end - start;
    const extents = [0, 1, 2].map((k) => centre[3 + k]! - centre[k]!);
    const axis = extents.indexOf(Math.max(...extents));
    if (size <= LEAF_SIZE || extents[axis]! === 0) {
      this.first[node] = start;
      this.count[node] = size;
      return node;
    }
    // Split at the middle of the centroids' extent along the longest axis.
    const middle = (centre[axis]! + centre[3 + axis]!) / 2;
    let i = start;
    let j = end - 1;
    while (i <= j) {
      if (centroids[this.order[i]! * 3 + axis]! < middle) i++;
      else {
        const swap = this.order[i]!;
        this.order[i] = this.order[j]!;
        this.order[j] = swap;
        j--;
      }
    }
    const split = i === start || i === end ? (start + end) >> 1 : i;
    const left = this.build(centroids, start, split);
    const right = this.build(centroids, split, end);
    this.first[node] = left;
    this.right[node] = right;
    return node;
  }

  /** Distance from (x, y, z) to the nearest point of the surface (Infinity for an empty surface). */
  distance(x: number, y: number, z: number): number {
    if (this.first.length === 0) return Infinity;
    let best = Infinity;
    const stack = [0];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (this.boxDistance2(node, x, y, z) >= best * best) continue;
      const count = this.count[node]!;
      if (count > 0) {
        for (let i = this.first[node]!; i < this.first[node]! + count; i++) {
          const d = this.triangleDistance2(this.order[i]!, x, y, z);
          if (d < best * best) best = Math.sqrt(d);
        }
        continue;
      }
      const left = this.first[node]!;
      const right = this.right[node]!;
      const dl = this.boxDistance2(left, x, y, z);
      const dr = this.boxDistance2(right, x, y, z);
      // Nearer child last, so it is visited first.
      if (dl < dr) stack.push(right, left);
      else stack.push(left, right);
    }
    return best;
  }

  private boxDistance2(node: number, x: number, y: number, z: number): number {
    const b = this.boxes;
    const o = node * 6;
    const dx = Math.max(b[o]! - x, 0, x - b[o + 3]!);
    const dy = Math.max(b[o + 1]! - y, 0, y - b[o + 4]!);
    const dz = Math.max(b[o + 2]! - z, 0, z - b[o + 5]!);
    return dx * dx + dy * dy + dz * dz;
  }

  /** Squared distance to the closest point of a triangle (Ericson, Real-Time Collision Detection, 5.1.5). */
  private triangleDistance2(tri: number, px: number, py: number, pz: number): number {
    const p = this.p;
    const a = this.t[tri * 3]! * 3;
    const b = this.t[tri * 3 + 1]! * 3;
    const c = this.t[tri * 3 + 2]! * 3;
    const ax = p[a]!,
      ay = p[a + 1]!,
      az = p[a + 2]!;
    const abx = p[b]! - ax,
      aby = p[b + 1]! - ay,
      abz = p[b + 2]! - az;
    const acx = p[c]! - ax,
      acy = p[c + 1]! - ay,
      acz = p[c + 2]! - az;
    // The point's offset from the corner at `v`, along ab and along ac (not normalised).
    const alongAb = (v: number) => abx * (px - p[v]!) + aby * (py - p[v + 1]!) + abz * (pz - p[v + 2]!);
    const alongAc = (v: number) => acx * (px - p[v]!) + acy * (py - p[v + 1]!) + acz * (pz - p[v + 2]!);
    const d1 = alongAb(a);
    const d2 = alongAc(a);
    const closest = (u: number, v: number) => {
      const qx = ax + u * abx + v * acx - px;
      const qy = ay + u * aby + v * acy - py;
      const qz = az + u * abz + v * acz - pz;
      return qx * qx + qy * qy + qz * qz;
    };
    if (d1 <= 0 && d2 <= 0) return closest(0, 0);
    const d3 = alongAb(b);
    const d4 = alongAc(b);
    if (d3 >= 0 && d4 <= d3) return closest(1, 0);
    const vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return closest(d1 / (d1 - d3), 0);
    const d5 = alongAb(c);
    const d6 = alongAc(c);
    if (d6 >= 0 && d5 <= d6) return closest(0, 1);
    const vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return closest(0, d2 / (d2 - d6));
    const va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
      return closest(1 - w, w);
    }
    const denom = 1 / (va + vb + vc);
    return closest(vb * denom, vc * denom);
  }
}
