// bench/retopology: a 1M-triangle mesh to 8K faces, by our engine's retopology and by
// `@gltf-transform/cli simplify`, in the same run on the same input. Each run is a child process of its
// own (Node's start and module loading count for both): ours (bench/retopology-run.ts) reads the GLB,
// simplifies and pairs quads exactly as the engine's retopology sessions do, and writes the OBJ, MTL,
// texture and preview render; gltf-transform reads the GLB, simplifies to the same face count and writes a
// GLB. Ours runs bundled by esbuild as the app ships the engine (scripts/node-bundle.ts's options: the figure the
// goal is about), and from the TypeScript sources too (Node's type stripping costs about 0.2 s of start-up).
// Runs alternate so that drift of the machine hits all alike; medians are shown, and the ratio is the
// median of the per-round ratios (goal <= 1.2). Then the geometric error of both results against the input: the symmetric
// Hausdorff distance, sampled (main/engine/retopology/surface-distance.ts), absolute and as a share of the
// input's bounding-box diagonal. Ours is also run once with triangles only, for the error at 8K triangles.
// Run: node bench/retopology.ts [--rounds 5] [--faces 8000] [--grid 289] [--samples 200000]
//   (--grid n: the input is a displaced cube-sphere of 6·n²·2 triangles; 289 gives 1,002,252)
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Document, NodeIO } from '@gltf-transform/core';
import { build } from 'esbuild';
import { renderTexture } from '../main/engine/outputs/index.ts';
import { CUBE_FACES } from '../main/engine/outputs/mesh.ts';
import { boundsOf, diagonalOf, type TriangleMesh } from '../main/mesh/mesh.ts';
import { readGltf } from '../main/mesh/read-gltf.ts';
import { readObj } from '../main/mesh/read-obj.ts';
import { surfaceDistance, type Surface } from '../main/engine/retopology/surface-distance.ts';
import { weld } from '../main/engine/retopology/weld.ts';
import { NODE_BUNDLE } from '../scripts/node-bundle.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    faces: { type: 'string', default: '8000' },
    grid: { type: 'string', default: '289' },
    samples: { type: 'string', default: '200000' },
  },
});
const rounds = Number(values.rounds);
const faces = Number(values.faces);
const grid = Number(values.grid);
const samples = Number(values.samples);
// The package exports only its library (dist/cli.mjs); its command is bin/cli.js beside dist/.
const cli = join(fileURLToPath(import.meta.resolve('@gltf-transform/cli')), '..', '..', 'bin', 'cli.js');
const dir = await mkdtemp(join(tmpdir(), 'bench-retopology-'));

try {
  const input = join(dir, 'input.glb');
  const inputTriangles = await writeInput(input, grid);
  console.log(
    `input: displaced cube-sphere, ${inputTriangles.toLocaleString('en')} triangles, UV atlas of 6 charts with a texture (${input})`,
  );

  const bundle = join(dir, 'retopology-run.cjs');
  await build({
    ...NODE_BUNDLE,
    sourcemap: false,
    logLevel: 'error',
    entryPoints: [join(import.meta.dirname, 'retopology-run.ts')],
    outfile: bundle,
  });
  const ratio = faces / inputTriangles;
  const ours = (out: string, mode: 'quads' | 'triangles', from: 'bundle' | 'sources' = 'bundle') =>
    timed(process.execPath, [
      from === 'bundle' ? bundle : join(import.meta.dirname, 'retopology-run.ts'),
      input,
      out,
      String(faces),
      mode,
    ]);
  const theirs = (out: string) =>
    timed(process.execPath, [cli, 'simplify', input, out, '--ratio', ratio.toFixed(6), '--error', '1']);

  await ours(join(dir, 'warm-ours'), 'quads'); // warm the disk cache for all
  await theirs(join(dir, 'warm-theirs.glb'));
  const ourRuns: Timed[] = [];
  const sourceRuns: Timed[] = [];
  const theirRuns: Timed[] = [];
  for (let r = 0; r < rounds; r++) {
    const runs = [
      async () => ourRuns.push(await ours(join(dir, 'ours'), 'quads')),
      async () => theirRuns.push(await theirs(join(dir, 'theirs.glb'))),
      async () => sourceRuns.push(await ours(join(dir, 'ours-sources'), 'quads', 'sources')),
    ];
    for (let k = 0; k < runs.length; k++) await runs[(k + r) % runs.length]!();
  }
  const triangleRun = await ours(join(dir, 'ours-triangles'), 'triangles');

  const stats = JSON.parse(ourRuns.at(-1)!.stdout) as { faces: number; quads: number; triangles: number; kept: string };
  const triangleStats = JSON.parse(triangleRun.stdout) as { faces: number };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratios = (runs: Timed[], key: 'wallMs' | 'cpuMs') =>
    median(runs.map((o, i) => o[key] / theirRuns[i]![key])).toFixed(2);
  const row = (name: string, runs: Timed[]) =>
    `${name.padEnd(28)}: ${median(runs.map((t) => t.wallMs))
      .toFixed(0)
      .padStart(6)} ms wall, ${median(runs.map((t) => t.cpuMs))
      .toFixed(0)
      .padStart(6)} ms CPU   (wall runs: ${runs.map((t) => t.wallMs.toFixed(0)).join(', ')})`;

  console.log(
    `\n${rounds} alternating rounds, each run a child process, to ${faces.toLocaleString('en')} faces (medians)`,
  );
  console.log(row('gltf-transform simplify', theirRuns));
  console.log(row('asset-studio, as shipped', ourRuns));
  console.log(row('asset-studio, from sources', sourceRuns));
  console.log(
    `ratio as shipped/gltf-tr.   : ${ratios(ourRuns, 'wallMs')} wall, ${ratios(ourRuns, 'cpuMs')} CPU (medians of per-round ratios; goal <= 1.2)`,
  );
  console.log(`ratio from sources/gltf-tr. : ${ratios(sourceRuns, 'wallMs')} wall, ${ratios(sourceRuns, 'cpuMs')} CPU`);

  // Geometric error against the input.
  const inputMesh = await readGltf(await readFile(input), 'glb');
  const inputSurface = await surfaceOfTriangles(inputMesh);
  const diagonal = diagonalOf(boundsOf(inputMesh.positions));
  const theirMesh = await readGltf(await readFile(join(dir, 'theirs.glb')), 'glb');
  const results: [string, string, TriangleMesh][] = [
    ['gltf-transform simplify', `${(theirMesh.indices.length / 3).toLocaleString('en')} triangles`, theirMesh],
    [
      'asset-studio (quads)',
      `${stats.faces.toLocaleString('en')} faces: ${stats.quads.toLocaleString('en')} quads + ${stats.triangles.toLocaleString('en')} triangles`,
      readObj(await readFile(join(dir, 'ours', 'mesh.obj'), 'utf8')),
    ],
    [
      'asset-studio (triangles)',
      `${triangleStats.faces.toLocaleString('en')} triangles`,
      readObj(await readFile(join(dir, 'ours-triangles', 'mesh.obj'), 'utf8')),
    ],
  ];
  console.log(
    `\ngeometric error against the input (symmetric Hausdorff distance, ${samples.toLocaleString('en')} samples a side plus the vertices; bounding-box diagonal ${diagonal.toFixed(4)})`,
  );
  for (const [name, what, mesh] of results) {
    const d = surfaceDistance(await surfaceOfTriangles(mesh), inputSurface, samples);
    const pct = (x: number) => `${((100 * x) / diagonal).toFixed(3)}%`;
    console.log(
      `${name.padEnd(25)}: Hausdorff ${d.hausdorff.toFixed(5)} (${pct(d.hausdorff)} of the diagonal), mean ${((d.meanAToB + d.meanBToA) / 2).toFixed(5)} (${pct((d.meanAToB + d.meanBToA) / 2)})  [${what}]`,
    );
  }
  console.log(
    `\nasset-studio's simplification kept: ${stats.kept} (borders-and-seams: open borders locked and UV seams kept; seams: borders released to reach the budget, UV seams kept)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

interface Timed {
  wallMs: number;
  cpuMs: number;
  stdout: string;
}

/** Runs a command in bash's `time` (user + system CPU of the child and its children) and measures its wall time. */
function timed(command: string, args: string[]): Promise<Timed> {
  const quoted = [command, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('bash', ['-c', `TIMEFORMAT='%3U %3S'; time ${quoted} 2>/dev/null`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`${quoted} exited ${code}: ${stderr}`));
      const [user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
      resolve({ wallMs, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000, stdout });
    });
  });
}

async function surfaceOfTriangles(mesh: TriangleMesh): Promise<Surface> {
  const welded = await weld(mesh);
  return { positions: welded.positions, triangles: welded.indices };
}

/**
 * The input: a rock-like cube-sphere (six n × n grids pushed onto a sphere and displaced by many sine
 * waves, fine ones included, so 1M triangles carry real detail), normals, a 3 × 2 UV atlas (seams between
 * the charts) and a base-colour texture, written as a GLB. Returns its triangle count.
 */
async function writeInput(path: string, n: number): Promise<number> {
  const faces = CUBE_FACES;
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const waves = Array.from({ length: 48 }, (_, i) => {
    const d = [random() - 0.5, random() - 0.5, random() - 0.5];
    const l = Math.hypot(d[0]!, d[1]!, d[2]!);
    const freq = 2 + i * 1.5;
    return { d: d.map((x) => x / l), freq, phase: 6.283 * random(), amp: 0.12 / freq };
  });
  const side = n + 1;
  const positions = new Float32Array(6 * side * side * 3);
  const normals = new Float32Array(positions.length);
  const uvs = new Float32Array(6 * side * side * 2);
  const indices = new Uint32Array(6 * n * n * 6);
  let q = 0;
  faces.forEach(([normal, u, v], f) => {
    for (let j = 0; j <= n; j++) {
      for (let i = 0; i <= n; i++) {
        const s = (2 * i) / n - 1;
        const t = (2 * j) / n - 1;
        const c = [0, 1, 2].map((k) => normal[k]! + s * u[k]! + t * v[k]!);
        const l = Math.hypot(c[0]!, c[1]!, c[2]!);
        const d = c.map((x) => x / l);
        let r = 1;
        for (const w of waves)
          r += w.amp * Math.sin(w.freq * (d[0]! * w.d[0]! + d[1]! * w.d[1]! + d[2]! * w.d[2]!) + w.phase);
        const vi = f * side * side + j * side + i;
        positions.set([d[0]! * r, d[1]! * r * 0.8, d[2]! * r], vi * 3);
        normals.set(d, vi * 3);
        uvs.set([((f % 3) + 0.01 + (i / n) * 0.98) / 3, (Math.floor(f / 3) + 0.01 + (1 - j / n) * 0.98) / 2], vi * 2);
        if (i < n && j < n) {
          indices.set([vi, vi + 1, vi + side + 1, vi, vi + side + 1, vi + side], q);
          q += 6;
        }
      }
    }
  });
  const doc = new Document();
  const buffer = doc.createBuffer();
  const texture = doc.createTexture('rock').setImage(renderTexture('bench-rock')).setMimeType('image/png');
  const material = doc.createMaterial('rock').setBaseColorTexture(texture).setRoughnessFactor(0.9).setMetallicFactor(0);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normals).setBuffer(buffer))
    .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uvs).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
    .setMaterial(material);
  const mesh = doc.createMesh('rock').addPrimitive(primitive);
  doc.createScene('scene').addChild(doc.createNode('rock').setMesh(mesh));
  await writeFile(path, await new NodeIO().writeBinary(doc));
  return indices.length / 3;
}
