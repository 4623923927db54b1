// Automatic rigging (issue #32 item 1): the time to rig a 20,000-triangle character with no skeleton on one core
// (main/engine/rigging/auto-rig.ts, run on this thread as a worker of the engine's pool runs it), by step: solid
// voxels, joints, skeleton and bone-heat weights. Baselines in the same run, on the same mesh: the engine reading
// the same mesh's FBX (Babylon.js, as an upload is read before it is rigged) and a naive skin (each vertex
// wholly to its nearest bone, no heat, no visibility). The character is Male_Casual.fbx with its skin and bones
// dropped, its triangles split in four (all once, then the largest again) up to 20,000. Goal: rig ≤ 5 s.
// Command: node bench/auto-rig.ts [--runs 3] [--triangles 20000]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CharacterModel } from '../main/formats/character.ts';
import { writeFbx } from '../main/formats/fbx.ts';
import { readFbxCharacter } from '../main/formats/fbx-read.ts';
import { findBody } from '../main/engine/rigging/body.ts';
import { heatWeights } from '../main/engine/rigging/heat.ts';
import { fitSkeleton, type FittedBone } from '../main/engine/rigging/skeleton.ts';
import { voxelize } from '../main/engine/rigging/voxels.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, triangles: { type: 'string', default: '20000' } },
});
const RUNS = Number(values.runs);
const TARGET = Number(values.triangles);
const SHARED = resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'real');

/** Splits triangles in four at their edges' midpoints (shared midpoints shared), largest first, until `target`. */
function subdivide(positions: number[], indices: number[], target: number): { positions: number[]; indices: number[] } {
  let tris = indices;
  const pos = [...positions];
  const area = (t: number) => {
    const [a, b, c] = [tris[t]! * 3, tris[t + 1]! * 3, tris[t + 2]! * 3];
    const u = [pos[b]! - pos[a]!, pos[b + 1]! - pos[a + 1]!, pos[b + 2]! - pos[a + 2]!];
    const v = [pos[c]! - pos[a]!, pos[c + 1]! - pos[a + 1]!, pos[c + 2]! - pos[a + 2]!];
    return Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!);
  };
  while (tris.length / 3 < target) {
    const mids = new Map<string, number>();
    const mid = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let m = mids.get(key);
      if (m === undefined) {
        m = pos.length / 3;
        pos.push(
          (pos[a * 3]! + pos[b * 3]!) / 2,
          (pos[a * 3 + 1]! + pos[b * 3 + 1]!) / 2,
          (pos[a * 3 + 2]! + pos[b * 3 + 2]!) / 2,
        );
        mids.set(key, m);
      }
      return m;
    };
    const order = Array.from({ length: tris.length / 3 }, (_, i) => i * 3).sort((x, y) => area(y) - area(x));
    const splits = Math.min(order.length, Math.ceil((target - tris.length / 3) / 3));
    const next: number[] = [];
    for (const [k, t] of order.entries()) {
      const [a, b, c] = [tris[t]!, tris[t + 1]!, tris[t + 2]!];
      if (k >= splits) {
        next.push(a, b, c);
        continue;
      }
      const [ab, bc, ca] = [mid(a, b), mid(b, c), mid(c, a)];
      next.push(a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca);
    }
    tris = next;
  }
  return { positions: pos, indices: tris };
}

function naiveSkin(model: CharacterModel, bones: FittedBone[]): number {
  let far = 0;
  for (let v = 0; v < model.positions.length / 3; v++) {
    const p = [model.positions[v * 3]!, model.positions[v * 3 + 1]!, model.positions[v * 3 + 2]!];
    let best = Infinity;
    for (const bone of bones)
      for (const [a, b] of bone.segments) {
        const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        const l2 = ab[0]! ** 2 + ab[1]! ** 2 + ab[2]! ** 2 || 1;
        const t = Math.max(
          0,
          Math.min(1, ((p[0]! - a[0]) * ab[0]! + (p[1]! - a[1]) * ab[1]! + (p[2]! - a[2]) * ab[2]!) / l2),
        );
        best = Math.min(
          best,
          Math.hypot(p[0]! - a[0] - t * ab[0]!, p[1]! - a[1] - t * ab[1]!, p[2]! - a[2] - t * ab[2]!),
        );
      }
    far = Math.max(far, best);
  }
  return far;
}

const source = await readFbxCharacter(readFileSync(join(SHARED, 'fbx', 'Male_Casual.fbx')), 'Male_Casual.fbx');
const fine = subdivide(
  source.positions,
  source.parts.flatMap((p) => p.indices),
  TARGET,
);
const count = fine.positions.length / 3;
const fbx = writeFbx(
  {
    positions: Float32Array.from(fine.positions),
    normals: new Float32Array(count * 3),
    uvs: new Float32Array(count * 2),
    polygonVertexIndex: Int32Array.from(fine.indices, (v, k) => (k % 3 === 2 ? ~v : v)),
  },
  'bench',
);
/** CPU time of this process since `t0` (process.cpuUsage, ms): what the work costs one core, whatever else the machine runs. */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const ms = (t0: number) => cpu() - t0;
const wall: Record<string, number[]> = {};
const rows: Record<string, number[]> = {
  'read FBX (baseline)': [],
  'naive nearest-bone skin (baseline)': [],
  voxels: [],
  joints: [],
  'heat weights': [],
  'auto-rig total': [],
};
let triangles = 0;
let vertices = 0;
for (let run = 0; run < RUNS; run++) {
  let t = cpu();
  const model = await readFbxCharacter(fbx, 'fine.fbx');
  rows['read FBX (baseline)']!.push(ms(t));
  triangles = model.parts.reduce((n, p) => n + p.indices.length / 3, 0);
  vertices = model.positions.length / 3;
  const tris = model.parts.flatMap((p) => p.indices);
  const start = cpu();
  const startWall = performance.now();
  t = start;
  const voxels = voxelize(model.positions, tris);
  rows.voxels!.push(ms(t));
  t = cpu();
  const bones = fitSkeleton(findBody(voxels, model.positions));
  rows.joints!.push(ms(t));
  t = cpu();
  heatWeights(model.positions, tris, bones, voxels);
  rows['heat weights']!.push(ms(t));
  rows['auto-rig total']!.push(ms(start));
  (wall.total ??= []).push(performance.now() - startWall);
  t = cpu();
  naiveSkin(model, bones);
  rows['naive nearest-bone skin (baseline)']!.push(ms(t));
}
console.log(
  `Male_Casual with no skeleton, split to ${triangles} triangles (${vertices} vertices as read), ${RUNS} runs, one thread; CPU time of each step`,
);
for (const [name, times] of Object.entries(rows)) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(36)} median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0).padStart(6)} ms   worst ${sorted.at(-1)!.toFixed(0).padStart(6)} ms`,
  );
}
const total = [...rows['auto-rig total']!].sort((a, b) => a - b).at(-1)!;
const walls = [...wall.total!].sort((a, b) => a - b);
console.log(
  `auto-rig wall time (the machine's other load included): median ${walls[Math.floor(walls.length / 2)]!.toFixed(0)} ms, worst ${walls.at(-1)!.toFixed(0)} ms`,
);
console.log(
  `goal: auto-rig ≤ 5000 ms of one core — ${total <= 5000 ? 'met' : 'NOT met'} (worst ${total.toFixed(0)} ms of CPU)`,
);
