// bench/lod-chain: a 1M-triangle GLB to a 4-level LOD chain (LOD0 and LOD1..3 at 1/2, 1/4, 1/8 of its triangles),
// by main/gameready/lod-chain.ts (meshoptimizer's simplifyWithAttributes, normals and UVs weighted, borders
// locked, each level from the one before) and by `@gltf-transform/functions` `simplify` doing the same ratios
// (each level from the full mesh, after `weld`, error unbounded so it reaches the ratio, borders locked as ours),
// in the same run on the same GLB. Both read the GLB and weld first; rounds alternate, medians shown, and the ratio
// is the median of the per-round ratios (goal <= 1.2). Then each level's geometric error against the true
// surface (the input is a bumpy sphere whose radius is known in every direction, test/gameready/model.ts): the
// largest and the mean distance of every simplified triangle's centroid and edge midpoints from it, as a share of
// the radius (goal: ours no larger).
// Run: node bench/lod-chain.ts [--rounds 3] [--triangles 1000000]
import { parseArgs } from 'node:util';
import { type Document, Logger, NodeIO, type Primitive } from '@gltf-transform/core';
import { simplify, weld } from '@gltf-transform/functions';
import { MeshoptSimplifier } from 'meshoptimizer';
import { buildLodChain } from '../main/gameready/lod-chain.ts';
import { radiusAt, sphereGlb } from '../test/gameready/model.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, triangles: { type: 'string', default: '1000000' } },
});
const rounds = Number(values.rounds);
const RATIOS = [0.5, 0.25, 0.125];

const glb = await sphereGlb({ triangles: Number(values.triangles) });
const io = new NodeIO();
const read = async () => (await io.readBinary(glb)).setLogger(new Logger(Logger.Verbosity.ERROR));
const prim0 = (doc: Document) => doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
await MeshoptSimplifier.ready;

async function ours(): Promise<{ ms: number; levels: Primitive[] }> {
  const t = performance.now();
  const doc = await read();
  const chain = await buildLodChain(doc, { triangleBudget: 10_000_000, ratios: RATIOS });
  const ms = performance.now() - t;
  return { ms, levels: chain.meshes[0]!.lods.map((m) => m.listPrimitives()[0]!) };
}

async function baseline(): Promise<{ ms: number; levels: Primitive[] }> {
  const t = performance.now();
  const levels: Primitive[] = [];
  for (const ratio of RATIOS) {
    const doc = await read();
    await doc.transform(weld(), simplify({ simplifier: MeshoptSimplifier, ratio, error: 1, lockBorder: true }));
    levels.push(prim0(doc));
  }
  return { ms: performance.now() - t, levels };
}

/** Largest and mean distance from the true surface of each triangle's centroid and edge midpoints (share of the radius). */
function surfaceError(prim: Primitive): { max: number; mean: number; triangles: number } {
  const p = prim.getAttribute('POSITION')!.getArray()!;
  const idx = prim.getIndices()!.getArray()!;
  let max = 0;
  let sum = 0;
  let n = 0;
  const at = (w: [number, number, number][]) => {
    let x = 0;
    let y = 0;
    let z = 0;
    for (const [v, a] of w.map(([v, a]) => [v, a] as const)) {
      x += p[v * 3]! * a;
      y += p[v * 3 + 1]! * a;
      z += p[v * 3 + 2]! * a;
    }
    const len = Math.hypot(x, y, z);
    const d = Math.abs(len - radiusAt(x / len, y / len, z / len));
    max = Math.max(max, d);
    sum += d;
    n += 1;
  };
  for (let k = 0; k < idx.length; k += 3) {
    const [a, b, c] = [idx[k]!, idx[k + 1]!, idx[k + 2]!];
    at([
      [a, 1 / 3, 0],
      [b, 1 / 3, 0],
      [c, 1 / 3, 0],
    ]);
    at([
      [a, 0.5, 0],
      [b, 0.5, 0],
    ]);
    at([
      [b, 0.5, 0],
      [c, 0.5, 0],
    ]);
    at([
      [c, 0.5, 0],
      [a, 0.5, 0],
    ]);
  }
  return { max, mean: sum / n, triangles: idx.length / 3 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const oursMs: number[] = [];
const baseMs: number[] = [];
const ratios: number[] = [];
let last: { ours: Primitive[]; base: Primitive[] } | undefined;
for (let r = 0; r < rounds; r++) {
  const a = r % 2 === 0 ? await ours() : undefined;
  const b = await baseline();
  const c = a ?? (await ours());
  oursMs.push(c.ms);
  baseMs.push(b.ms);
  ratios.push(c.ms / b.ms);
  last = { ours: c.levels, base: b.levels };
}
const input =
  prim0(await read())
    .getIndices()!
    .getCount() / 3;
console.log(
  `input: ${input.toLocaleString('en-US')} triangles; LOD1..3 at ${RATIOS.join(', ')} of them; ${rounds} alternating rounds (medians)`,
);
console.log(
  `gltf-transform simplify (3 runs)      : ${median(baseMs).toFixed(0)} ms  (runs: ${baseMs.map((x) => x.toFixed(0)).join(', ')})`,
);
console.log(
  `main/gameready buildLodChain (chain)  : ${median(oursMs).toFixed(0)} ms  (runs: ${oursMs.map((x) => x.toFixed(0)).join(', ')})`,
);
console.log(
  `ratio ours/gltf-transform             : ${median(ratios).toFixed(3)} (median of per-round ratios; goal <= 1.2)`,
);
console.log(
  'level  triangles (ours / g-t)     max error (ours / g-t)     mean error (ours / g-t), share of the radius',
);
for (let i = 0; i < RATIOS.length; i++) {
  const o = surfaceError(last!.ours[i]!);
  const g = surfaceError(last!.base[i]!);
  console.log(
    `LOD${i + 1}   ${o.triangles.toLocaleString('en-US').padStart(8)} / ${g.triangles.toLocaleString('en-US').padEnd(8)}       ` +
      `${(o.max * 100).toFixed(3)} % / ${(g.max * 100).toFixed(3)} %          ${(o.mean * 100).toFixed(4)} % / ${(g.mean * 100).toFixed(4)} %`,
  );
}
