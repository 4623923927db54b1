// Skin weights by bone heat (Baran and Popović 2007, "Automatic rigging and animation of 3D characters", the
// method of Blender's "With Automatic Weights"): each bone's weight is the equilibrium of heat diffusing over
// the surface, −Δw + H·w = H·p, where p is 1 at the vertices whose nearest bone *visible from them* is
// that bone, and H = 1/d² pulls each vertex towards its nearest visible bone at distance d. Δ is the mesh
// graph's Laplacian (edge weights 1/length², on the mesh with its seams welded); "visible" means the straight
// line from the vertex to the bone stays inside the body's voxels (voxels.ts), so a hand's vertex beside a
// thigh is never heated by the thigh. A vertex that sees no bone is pulled weakly towards its nearest one.
// Each system is solved by conjugate gradients (Jacobi-preconditioned); the four strongest weights are kept,
// summing to 1.
import type { V3 } from '../../formats/character.ts';
import type { FittedBone } from './skeleton.ts';
import { staysInside, type Voxels } from './voxels.ts';

export interface Skin {
  /** Four bone indices and four weights (summing to 1) per vertex. */
  joints: number[];
  weights: number[];
}

/** How strongly a vertex that sees no bone is held by its nearest one, relative to a visible one. */
const UNSEEN = 0.1;
const MAX_ITERATIONS = 600;
const TOLERANCE = 1e-4;

export function heatWeights(
  positions: ArrayLike<number>,
  triangles: ArrayLike<number>,
  bones: FittedBone[],
  voxels: Voxels,
): Skin {
  const { ids, points } = weld(positions);
  const m = points.length / 3;
  const graph = laplacian(ids, triangles, points, m);
  // Nearest visible bone of each welded vertex, and the heat H that holds it there.
  const nearest = new Int32Array(m);
  const heat = new Float64Array(m);
  const order = bones.map((_, b) => b);
  const distance = new Float64Array(bones.length);
  const closest: V3[] = bones.map(() => [0, 0, 0]);
  for (let j = 0; j < m; j++) {
    const p: V3 = [points[j * 3]!, points[j * 3 + 1]!, points[j * 3 + 2]!];
    for (let b = 0; b < bones.length; b++) {
      let best = Infinity;
      for (const [a, e] of bones[b]!.segments) {
        const q = closestOnSegment(p, a, e);
        const d = Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]);
        if (d < best) {
          best = d;
          closest[b] = q;
        }
      }
      distance[b] = best;
    }
    order.sort((x, y) => distance[x]! - distance[y]!);
    let chosen = -1;
    for (const b of order) {
      if (staysInside(voxels, p, closest[b]!)) {
        chosen = b;
        break;
      }
    }
    const seen = chosen >= 0;
    if (!seen) chosen = order[0]!;
    const d = Math.max(distance[chosen]!, 1e-3 * voxels.size);
    nearest[j] = chosen;
    heat[j] = (seen ? 1 : UNSEEN) / (d * d);
  }
  // One diffusion per bone that is some vertex's nearest.
  const welded = new Float64Array(m * bones.length);
  const rhs = new Float64Array(m);
  const x = new Float64Array(m);
  for (let b = 0; b < bones.length; b++) {
    let any = false;
    for (let j = 0; j < m; j++) {
      const own = nearest[j] === b ? 1 : 0;
      rhs[j] = heat[j]! * own;
      x[j] = own;
      any ||= own === 1;
    }
    if (!any) continue;
    solve(graph, heat, rhs, x);
    for (let j = 0; j < m; j++) welded[j * bones.length + b] = x[j]!;
  }
  // The four strongest per vertex, summing to 1.
  const joints: number[] = [];
  const weights: number[] = [];
  const top: [number, number][] = [];
  for (let i = 0; i < ids.length; i++) {
    const j = ids[i]!;
    top.length = 0;
    for (let b = 0; b < bones.length; b++) {
      const w = welded[j * bones.length + b]!;
      if (w > 1e-4) top.push([b, w]);
    }
    top.sort((p, q) => q[1] - p[1]);
    top.length = Math.min(4, top.length);
    const sum = top.reduce((s, [, w]) => s + w, 0);
    if (sum <= 0) top.splice(0, top.length, [nearest[j]!, 1]);
    for (let k = 0; k < 4; k++) {
      const [b, w] = top[k] ?? [0, 0];
      joints.push(b);
      weights.push(sum > 0 ? w / sum : w);
    }
  }
  return { joints, weights };
}

/** Vertices at the same place (a mesh split along its UV seams and normals) as one: each vertex's id, and the ids' positions. */
function weld(positions: ArrayLike<number>): { ids: Int32Array; points: Float64Array } {
  const n = positions.length / 3;
  let span = 0;
  for (let i = 0; i < positions.length; i++) span = Math.max(span, Math.abs(positions[i]!));
  const q = Math.max(span, 1e-9) * 1e-6;
  const ids = new Int32Array(n);
  const seen = new Map<string, number>();
  const points: number[] = [];
  for (let v = 0; v < n; v++) {
    const key = `${Math.round(positions[v * 3]! / q)},${Math.round(positions[v * 3 + 1]! / q)},${Math.round(positions[v * 3 + 2]! / q)}`;
    let id = seen.get(key);
    if (id === undefined) {
      id = points.length / 3;
      seen.set(key, id);
      points.push(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!);
    }
    ids[v] = id;
  }
  return { ids, points: Float64Array.from(points) };
}

interface Graph {
  /** CSR: the neighbours of vertex j are `to[start[j]..start[j+1]]`, with edge weights `w`. */
  start: Int32Array;
  to: Int32Array;
  w: Float64Array;
  /** Sum of each vertex's edge weights. */
  degree: Float64Array;
}

function laplacian(ids: Int32Array, triangles: ArrayLike<number>, p: Float64Array, m: number): Graph {
  const keys = new Set<number>();
  for (let t = 0; t + 2 < triangles.length; t += 3)
    for (const [u, v] of [
      [0, 1],
      [1, 2],
      [2, 0],
    ] as const) {
      const a = ids[triangles[t + u]!]!;
      const b = ids[triangles[t + v]!]!;
      if (a !== b) keys.add(Math.min(a, b) * m + Math.max(a, b));
    }
  const count = new Int32Array(m + 1);
  for (const k of keys) {
    count[Math.floor(k / m)]!++;
    count[k % m]!++;
  }
  const start = new Int32Array(m + 1);
  for (let j = 0; j < m; j++) start[j + 1] = start[j]! + count[j]!;
  const fill = start.slice(0, m);
  const to = new Int32Array(start[m]!);
  const w = new Float64Array(start[m]!);
  const degree = new Float64Array(m);
  let span = 0;
  for (let i = 0; i < p.length; i++) span = Math.max(span, Math.abs(p[i]!));
  const shortest = (1e-4 * span) ** 2;
  for (const k of keys) {
    const a = Math.floor(k / m);
    const b = k % m;
    const d2 =
      (p[a * 3]! - p[b * 3]!) ** 2 + (p[a * 3 + 1]! - p[b * 3 + 1]!) ** 2 + (p[a * 3 + 2]! - p[b * 3 + 2]!) ** 2;
    const weight = 1 / Math.max(d2, shortest);
    to[fill[a]!] = b;
    w[fill[a]!++] = weight;
    to[fill[b]!] = a;
    w[fill[b]!++] = weight;
    degree[a]! += weight;
    degree[b]! += weight;
  }
  return { start, to, w, degree };
}

/** Solves (L + diag(heat))·x = rhs by preconditioned conjugate gradients, from the x given. */
function solve(g: Graph, heat: Float64Array, rhs: Float64Array, x: Float64Array): void {
  const m = x.length;
  const diag = new Float64Array(m);
  for (let j = 0; j < m; j++) diag[j] = g.degree[j]! + heat[j]!;
  const apply = (v: Float64Array, out: Float64Array) => {
    for (let j = 0; j < m; j++) {
      let s = diag[j]! * v[j]!;
      for (let k = g.start[j]!; k < g.start[j + 1]!; k++) s -= g.w[k]! * v[g.to[k]!]!;
      out[j] = s;
    }
  };
  const r = new Float64Array(m);
  const z = new Float64Array(m);
  const d = new Float64Array(m);
  const ad = new Float64Array(m);
  apply(x, ad);
  let bNorm = 0;
  for (let j = 0; j < m; j++) {
    r[j] = rhs[j]! - ad[j]!;
    z[j] = r[j]! / diag[j]!;
    d[j] = z[j]!;
    bNorm += rhs[j]! * rhs[j]!;
  }
  bNorm = Math.sqrt(bNorm) || 1;
  let rz = 0;
  for (let j = 0; j < m; j++) rz += r[j]! * z[j]!;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    apply(d, ad);
    let dad = 0;
    for (let j = 0; j < m; j++) dad += d[j]! * ad[j]!;
    if (!(dad > 0)) return;
    const alpha = rz / dad;
    let rNorm = 0;
    for (let j = 0; j < m; j++) {
      x[j]! += alpha * d[j]!;
      r[j]! -= alpha * ad[j]!;
      rNorm += r[j]! * r[j]!;
    }
    if (Math.sqrt(rNorm) < TOLERANCE * bNorm) return;
    let next = 0;
    for (let j = 0; j < m; j++) {
      z[j] = r[j]! / diag[j]!;
      next += r[j]! * z[j]!;
    }
    const beta = next / rz;
    rz = next;
    for (let j = 0; j < m; j++) d[j] = z[j]! + beta * d[j]!;
  }
}

function closestOnSegment(p: V3, a: V3, b: V3): V3 {
  const ab: V3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const len2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
  const t =
    len2 > 0
      ? Math.max(0, Math.min(1, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1] + (p[2] - a[2]) * ab[2]) / len2))
      : 0;
  return [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]];
}
