// Pairing triangles into quads: two triangles that share an edge (the same two vertices, so the same
// position, uv and material on both sides) become one quad when together they are near-planar and
// near-rectangular and make a convex quad. The best pairs are taken first; a triangle left without a good
// partner stays a triangle (mixed topology).
import { between, triangleCross } from '../../../shared/vectors.ts';

/** Largest angle between the two triangles' normals. */
export const MAX_FOLD_DEGREES = 30;
/** Largest distance of a quad's corner angle from 90°. */
export const MAX_CORNER_SKEW_DEGREES = 45;

export interface Paired {
  /** Counter-clockwise quads, four indices each. */
  quads: Uint32Array;
  /** The triangles left alone. */
  triangles: Uint32Array;
}

export function pairTriangles(positions: Float32Array, indices: Uint32Array): Paired {
  const triangleCount = indices.length / 3;
  const normals = new Float64Array(triangleCount * 3);
  for (let t = 0; t < triangleCount; t++) {
    const n = triangleNormal(positions, indices[t * 3]!, indices[t * 3 + 1]!, indices[t * 3 + 2]!);
    normals.set(n, t * 3);
  }

  // Half-edges sorted by their undirected edge: an edge shared by exactly two triangles, in opposite
  // directions, is a candidate; an edge of three or more triangles (non-manifold), or two in the same
  // direction (flipped neighbours), pairs with nothing.
  const halfEdges = indices.length;
  const vertexCount = positions.length / 3;
  const keys = new Float64Array(halfEdges);
  for (let h = 0; h < halfEdges; h++) {
    const a = indices[h]!;
    const b = indices[h - (h % 3) + ((h + 1) % 3)]!;
    keys[h] = a < b ? a * vertexCount + b : b * vertexCount + a;
  }
  const order = Uint32Array.from({ length: halfEdges }, (_, h) => h).sort((x, y) => keys[x]! - keys[y]!);

  const minFoldCos = Math.cos((MAX_FOLD_DEGREES * Math.PI) / 180);
  const maxSkew = (MAX_CORNER_SKEW_DEGREES * Math.PI) / 180;
  const scores: number[] = [];
  const found: number[] = []; // t1, t2, and the quad's four corners, per candidate
  const quad: [number, number, number, number] = [0, 0, 0, 0];
  for (let i = 0; i + 1 < halfEdges; i++) {
    const h1 = order[i]!;
    const h2 = order[i + 1]!;
    if (keys[h1] !== keys[h2]) continue;
    if (i + 2 < halfEdges && keys[order[i + 2]!] === keys[h1]) {
      while (i + 1 < halfEdges && keys[order[i + 1]!] === keys[h1]) i++;
      continue;
    }
    i++;
    const t1 = (h1 - (h1 % 3)) / 3;
    const t2 = (h2 - (h2 % 3)) / 3;
    const a = indices[h1]!;
    const b = indices[t1 * 3 + ((h1 + 1) % 3)]!;
    if (t1 === t2 || indices[h2] !== b) continue; // same direction: not a manifold pair
    const c = indices[t1 * 3 + ((h1 + 2) % 3)]!;
    const d = indices[t2 * 3 + ((h2 + 2) % 3)]!;
    if (c === d) continue;
    const fold =
      normals[t1 * 3]! * normals[t2 * 3]! +
      normals[t1 * 3 + 1]! * normals[t2 * 3 + 1]! +
      normals[t1 * 3 + 2]! * normals[t2 * 3 + 2]!;
    if (!(fold >= minFoldCos)) continue;
    // t1 = (a, b, c) and t2 = (b, a, d): without the edge a–b, the quad a → d → b → c.
    quad[0] = a;
    quad[1] = d;
    quad[2] = b;
    quad[3] = c;
    const skew = cornerSkew(positions, quad, normals, t1, t2);
    if (skew > maxSkew) continue;
    scores.push(skew + (1 - fold));
    found.push(t1, t2, a, d, b, c);
  }
  const ranked = Uint32Array.from(scores, (_, i) => i).sort((x, y) => scores[x]! - scores[y]!);

  const taken = new Uint8Array(triangleCount);
  const quads = new Uint32Array(Math.floor(triangleCount / 2) * 4);
  let q = 0;
  for (const candidate of ranked) {
    const t1 = found[candidate * 6]!;
    const t2 = found[candidate * 6 + 1]!;
    if (taken[t1] || taken[t2]) continue;
    taken[t1] = 1;
    taken[t2] = 1;
    for (let k = 0; k < 4; k++) quads[q++] = found[candidate * 6 + 2 + k]!;
  }
  const triangles = new Uint32Array((triangleCount - (q / 4) * 2) * 3);
  let n = 0;
  for (let t = 0; t < triangleCount; t++) {
    if (taken[t]) continue;
    triangles[n++] = indices[t * 3]!;
    triangles[n++] = indices[t * 3 + 1]!;
    triangles[n++] = indices[t * 3 + 2]!;
  }
  return { quads: quads.slice(0, q), triangles };
}

/** Unit normal of a triangle (zero for a degenerate one). */
function triangleNormal(p: Float32Array, a: number, b: number, c: number): [number, number, number] {
  const n = triangleCross(p, a, b, c);
  const length = Math.hypot(...n);
  return length > 0 ? [n[0] / length, n[1] / length, n[2] / length] : [0, 0, 0];
}

/**
 * The largest distance of the quad's corner angles from 90° (radians); Infinity when the quad is not convex
 * (a corner turns against the pair's normal) or has a zero-length side.
 */
function cornerSkew(
  p: Float32Array,
  quad: [number, number, number, number],
  normals: Float64Array,
  t1: number,
  t2: number,
): number {
  const nx = normals[t1 * 3]! + normals[t2 * 3]!;
  const ny = normals[t1 * 3 + 1]! + normals[t2 * 3 + 1]!;
  const nz = normals[t1 * 3 + 2]! + normals[t2 * 3 + 2]!;
  let worst = 0;
  for (let i = 0; i < 4; i++) {
    const prev = quad[(i + 3) % 4]!;
    const here = quad[i]!;
    const next = quad[(i + 1) % 4]!;
    const [ax, ay, az] = between(p, here, prev);
    const [bx, by, bz] = between(p, here, next);
    const la = Math.hypot(ax, ay, az);
    const lb = Math.hypot(bx, by, bz);
    if (la === 0 || lb === 0) return Infinity;
    // Convex: the turn at each corner (next side × previous side) points along the pair's normal.
    const turn = (by * az - bz * ay) * nx + (bz * ax - bx * az) * ny + (bx * ay - by * ax) * nz;
    if (turn <= 0) return Infinity;
    const angle = Math.acos(Math.min(1, Math.max(-1, (ax * bx + ay * by + az * bz) / (la * lb))));
    worst = Math.max(worst, Math.abs(angle - Math.PI / 2));
  }
  return worst;
}
