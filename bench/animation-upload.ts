// Mesh animation on the embedded engine (#15): an upload of Quaternius' Male_Casual.fbx (42 bones, 1,854
// triangles) to a ready session, and every file it offers made (render, thumbnail, mesh GLB, the animation GLB
// with the six library clips, each library clip's GLB). Engine CPU (this process runs the engine) and wall
// time from the upload to the last file downloaded. Baseline in the same run: Kenney's character (a smaller
// rigged FBX; an FBX the engine wrote itself has no bones and is refused since #24). The session's clock runs
// a million times faster than the service, so only the work is measured.
// Command: node bench/animation-upload.ts [--rounds 3]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalEngine } from '../main/engine/engine.ts';
import { riggedCharacter } from '../test/fixtures.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);
const KEY = 'bench-key';
const dir = mkdtempSync(join(tmpdir(), 'bench-animation-'));
const engine = await startLocalEngine({ dataDir: dir, apiKey: KEY, speed: 1e6, initialCredits: 1e6 });
const headers = { 'x-api-key': KEY };

const cases: [string, Buffer][] = [
  [
    'Male_Casual.fbx (its own skeleton)',
    readFileSync(resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'real', 'fbx', 'Male_Casual.fbx')),
  ],
  ["baseline: Kenney's character (its own skeleton)", riggedCharacter()],
];

async function once(name: string, bytes: Buffer): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const up = (await (
    await fetch(`${engine.url}/mesh-animation/upload`, { method: 'POST', headers, body: form })
  ).json()) as { data: { session_code: string } };
  let session: {
    status: string;
    render_url: string;
    thumbnail: string;
    mesh_url: string;
    animation_url: string;
    animation_library: { url: string }[];
  };
  for (;;) {
    session = (
      (await (await fetch(`${engine.url}/mesh-animation/${up.data.session_code}`, { headers })).json()) as {
        data: typeof session;
      }
    ).data;
    if (session.status === 'predefined_done' || session.status.endsWith('failed')) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  if (session.status !== 'predefined_done') throw new Error(`${name}: ${session.status}`);
  for (const url of [
    session.render_url,
    session.thumbnail,
    session.mesh_url,
    session.animation_url,
    ...session.animation_library.map((a) => a.url),
  ]) {
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(`${name}: ${answer.status} for ${url}`);
    await answer.arrayBuffer();
  }
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / 1000, wall: performance.now() - t0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results = new Map(cases.map(([name]) => [name, [] as { cpu: number; wall: number }[]]));
try {
  for (const [name, bytes] of cases) await once(name, bytes); // warm-up: modules loaded, code compiled
  for (let r = 0; r < rounds; r++) for (const [name, bytes] of cases) results.get(name)!.push(await once(name, bytes));
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `${rounds} alternating rounds per case after one warm-up; upload to ready session with every file downloaded; medians`,
);
for (const [name, runs] of results) {
  console.log(
    `${name.padEnd(42)} engine CPU ${median(runs.map((r) => r.cpu))
      .toFixed(0)
      .padStart(5)} ms   wall ${median(runs.map((r) => r.wall))
      .toFixed(0)
      .padStart(5)} ms`,
  );
}
