// Deterministic seeded geometry shared by the GLB, OBJ and FBX writers.
// The surface is a subdivided cube (six n x n quad grids) whose points are pushed onto a seeded shape,
// so every output has clean quads, a 3 x 2 UV atlas and a predictable face count.
import { bounds } from '../../formats/glb.ts';
import { hslToRgb, seededRandom } from './seeded.ts';

export type MeshKind = 'box' | 'rock' | 'character';
export type Vec3 = [number, number, number];

export interface MeshOptions {
  seed: string;
  /** Default 'rock'. */
  kind?: MeshKind;
  /** Quad topology: targetFaces then counts quads instead of triangles. */
  quads?: boolean;
  /** Wanted number of faces (triangles, or quads when `quads`); default 2000. */
  targetFaces?: number;
  /** A limit the face count never exceeds (a quad or a triangle counts as one face), e.g. a model's stated maximum. */
  maxFaces?: number;
  /** [width, height, depth] in metres; -1 in a slot keeps the natural size (about 1 m) on that axis. */
  scale?: Vec3;
  /** Scale every axis by one factor: the largest that fits the given sizes. */
  preserveAspectRatio?: boolean;
  /** Model origin, normalised to the bounding box: [0,0,0] centre, [0,-0.5,0] bottom centre. */
  pivot?: Vec3;
}

export interface Mesh {
  /** xyz per vertex, metres, Y up. */
  positions: Float32Array;
  /** Unit normals, smooth across the atlas seams. */
  normals: Float32Array;
  /** uv per vertex, glTF convention (v grows downwards). */
  uvs: Float32Array;
  /** Counter-clockwise triangles, two per quad. */
  triangles: Uint32Array;
  /** Counter-clockwise quads over the same vertices. */
  quads: Uint32Array;
  /** Seeded base colour, each channel in [0, 1]. */
  color: Vec3;
}

/** Written into every output file that has a place for it. */
export const GENERATOR = 'Asset Studio local engine';

const DEFAULT_FACES = 2000;
const MAX_GRID = 256;
/** Cube faces as [normal, u axis, v axis] with u x v = normal, so grid order is counter-clockwise outside. */
export const CUBE_FACES: [Vec3, Vec3, Vec3][] = [
  [
    [1, 0, 0],
    [0, 0, -1],
    [0, 1, 0],
  ],
  [
    [-1, 0, 0],
    [0, 0, 1],
    [0, 1, 0],
  ],
  [
    [0, 1, 0],
    [1, 0, 0],
    [0, 0, -1],
  ],
  [
    [0, -1, 0],
    [1, 0, 0],
    [0, 0, 1],
  ],
  [
    [0, 0, 1],
    [1, 0, 0],
    [0, 1, 0],
  ],
  [
    [0, 0, -1],
    [-1, 0, 0],
    [0, 1, 0],
  ],
];
const UV_INSET = 0.01;

export function buildMesh(opts: MeshOptions): Mesh {
  const random = seededRandom(opts.seed);
  const shape = SHAPES[opts.kind ?? 'rock'](random);
  const color = hslToRgb(random(), 0.45 + 0.3 * random(), 0.35 + 0.25 * random());
  const target = opts.targetFaces ?? DEFAULT_FACES;
  if (!(target > 0)) throw new RangeError(`targetFaces must be above 0, got ${target}`);
  const perCell = opts.quads ? 6 : 12; // faces per grid cell over the cube's six sides
  const limit = opts.maxFaces === undefined ? MAX_GRID : Math.floor(Math.sqrt(opts.maxFaces / perCell));
  if (!(limit >= 1)) throw new RangeError(`maxFaces must be at least ${perCell}, got ${opts.maxFaces}`);
  const n = Math.min(MAX_GRID, limit, Math.max(1, Math.round(Math.sqrt(target / perCell))));

  const side = n + 1;
  const vertexCount = 6 * side * side;
  const positions = new Float32Array(vertexCount * 3);
  const uvs = new Float32Array(vertexCount * 2);
  const corner = new Uint32Array(vertexCount); // same id for the copies of a cube lattice point on several faces
  const quads = new Uint32Array(6 * n * n * 4);
  let q = 0;
  CUBE_FACES.forEach(([normal, u, v], f) => {
    const base = f * side * side;
    for (let j = 0; j <= n; j++) {
      for (let i = 0; i <= n; i++) {
        const s = (2 * i) / n - 1;
        const t = (2 * j) / n - 1;
        const c: Vec3 = [0, 1, 2].map((k) => normal[k]! + s * u[k]! + t * v[k]!) as Vec3;
        const vi = base + j * side + i;
        positions.set(shape(c), vi * 3);
        uvs[vi * 2] = ((f % 3) + UV_INSET + (i / n) * (1 - 2 * UV_INSET)) / 3;
        uvs[vi * 2 + 1] = (Math.floor(f / 3) + UV_INSET + (1 - j / n) * (1 - 2 * UV_INSET)) / 2;
        corner[vi] = c.reduce((id, x) => id * side + Math.round(((x + 1) * n) / 2), 0);
        if (i < n && j < n) quads.set([vi, vi + 1, vi + side + 1, vi + side], q++ * 4);
      }
    }
  });

  placeInBox(positions, opts);
  const triangles = new Uint32Array((quads.length / 4) * 6);
  for (let k = 0; k < quads.length / 4; k++) {
    const [a, b, c, d] = quads.subarray(k * 4, k * 4 + 4);
    triangles.set([a!, b!, c!, a!, c!, d!], k * 6);
  }
  return { positions, normals: smoothNormals(positions, triangles, corner), uvs, triangles, quads, color };
}

// ---- shapes: map a point of the [-1, 1] cube surface to a point of the model -------------------

type Shape = (c: Vec3) => Vec3;

const SHAPES: Record<MeshKind, (random: () => number) => Shape> = {
  box(random) {
    const half: Vec3 = [0.3 + 0.2 * random(), 0.3 + 0.2 * random(), 0.3 + 0.2 * random()];
    const round = 0.1 + 0.25 * random();
    return (c) => {
      const d = normalize(c);
      return [0, 1, 2].map((k) => half[k]! * ((1 - round) * c[k]! + round * d[k]!)) as Vec3;
    };
  },
  rock(random) {
    const squash: Vec3 = [0.8 + 0.3 * random(), 0.55 + 0.35 * random(), 0.8 + 0.3 * random()];
    const bumps = Array.from({ length: 6 }, () => ({
      dir: normalize([random() - 0.5, random() - 0.5, random() - 0.5]),
      freq: 2 + 5 * random(),
      phase: 2 * Math.PI * random(),
      amp: 0.03 + 0.05 * random(),
    }));
    return (c) => {
      const d = normalize(c);
      let r = 1;
      for (const b of bumps) r += b.amp * Math.sin(b.freq * dot(d, b.dir) + b.phase);
      return [d[0] * r * squash[0], d[1] * r * squash[1], d[2] * r * squash[2]];
    };
  },
  character(random) {
    // A surface of revolution: a rounded body below a spherical head, latitude mapped to height h in [0, 1].
    const bodyTop = 0.68 + 0.08 * random();
    const bodyRadius = 0.2 + 0.1 * random();
    const headRadius = 0.15 + 0.05 * random();
    const depth = 0.6 + 0.25 * random();
    const profile = (h: number) => {
      const body = h < bodyTop ? bodyRadius * Math.sqrt(Math.sin((Math.PI * h) / bodyTop)) : 0;
      const head = Math.sqrt(Math.max(0, headRadius ** 2 - (h - 1 + headRadius) ** 2));
      return Math.max(body, head);
    };
    return (c) => {
      const d = normalize(c);
      const ring = Math.hypot(d[0], d[2]) || 1;
      const h = Math.asin(d[1]) / Math.PI + 0.5;
      const r = profile(h) / ring;
      return [d[0] * r, h, d[2] * r * depth];
    };
  },
};

// ---- placement ---------------------------------------------------------------------------------

/** Scales the model to its target box (natural size: 1 m on the longest side) and moves the pivot to the origin. */
export function placeInBox(
  positions: Float32Array,
  opts: Pick<MeshOptions, 'scale' | 'preserveAspectRatio' | 'pivot'>,
): void {
  const pivot = opts.pivot ?? [0, 0, 0];
  const want = opts.scale ?? [-1, -1, -1];
  for (let k = 0; k < 3; k++) {
    if (!(Math.abs(pivot[k]!) <= 0.5)) throw new RangeError(`pivot values must be in [-0.5, 0.5], got ${pivot}`);
    if (!(want[k] === -1 || (Number.isFinite(want[k]) && want[k]! > 0))) {
      throw new RangeError(`scale values must be above 0 or -1, got ${want}`);
    }
  }
  const { min, max } = bounds(positions);
  const size = [0, 1, 2].map((k) => max[k]! - min[k]!);
  const natural = 1 / Math.max(...size);
  let factor = [0, 1, 2].map((k) => (want[k] === -1 ? natural : want[k]! / size[k]!));
  if (opts.preserveAspectRatio) {
    const given = [0, 1, 2].filter((k) => want[k] !== -1).map((k) => factor[k]!);
    factor = Array(3).fill(given.length > 0 ? Math.min(...given) : natural);
  }
  const origin = [0, 1, 2].map((k) => min[k]! + (pivot[k]! + 0.5) * size[k]!);
  for (let i = 0; i < positions.length; i++) {
    const k = i % 3;
    positions[i] = (positions[i]! - origin[k]!) * factor[k]!;
  }
}

/** Area-weighted vertex normals, summed per cube lattice point so the copies at atlas seams agree. */
function smoothNormals(positions: Float32Array, triangles: Uint32Array, corner: Uint32Array): Float32Array {
  const slot = new Map<number, number>();
  const sums: number[] = [];
  const slotOf = (v: number) => {
    let s = slot.get(corner[v]!);
    if (s === undefined) {
      s = slot.size;
      slot.set(corner[v]!, s);
      sums.push(0, 0, 0);
    }
    return s;
  };
  const p = (v: number): Vec3 => [positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!];
  for (let t = 0; t < triangles.length; t += 3) {
    const tri = [triangles[t]!, triangles[t + 1]!, triangles[t + 2]!];
    const [a, b, c] = tri.map(p) as [Vec3, Vec3, Vec3];
    const face = cross(sub(b, a), sub(c, a));
    for (const v of tri) {
      const s = slotOf(v) * 3;
      for (let k = 0; k < 3; k++) sums[s + k]! += face[k]!;
    }
  }
  const normals = new Float32Array(positions.length);
  for (let v = 0; v < corner.length; v++) {
    const s = slotOf(v) * 3;
    normals.set(normalize([sums[s]!, sums[s + 1]!, sums[s + 2]!]), v * 3);
  }
  return normals;
}

// ---- small maths -------------------------------------------------------------------------------

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const normalize = (a: Vec3): Vec3 => {
  const len = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / len, a[1] / len, a[2] / len];
};
