// bench/client-overhead: the same GET-session loop through our client and through bare undici.request,
// in the same run against the same engine (a child process). Prints both and the ratio (goal <= 1.15).
// The two loops alternate in many short rounds so that drift of the machine (2 cores shared with the
// engine) hits both alike; the figure is the median of the per-round ratios. The CPU time of this
// process per request is printed too: it is what the client itself costs, without the engine's time.
// Run: node bench/client-overhead.ts [--requests 200] [--rounds 40]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { ServiceClient } from '../main/api/client.ts';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '200' }, rounds: { type: 'string', default: '40' } },
});
const perRound = Number(values.requests);
const rounds = Number(values.rounds);
const apiKey = 'bench-key-0123456789';
const dataDir = mkdtempSync(join(tmpdir(), 'bench-overhead-'));

const engine = spawn(process.execPath, ['main/engine/run.ts'], {
  env: {
    ...process.env,
    ASSET_STUDIO_ENGINE_DATA_DIR: dataDir,
    ASSET_STUDIO_API_KEY: apiKey,
    ASSET_STUDIO_ENGINE_SPEED: '1',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise<string>((resolve) => createInterface({ input: engine.stdout! }).once('line', resolve));
const { url } = JSON.parse(first) as { url: string };

const client = new ServiceClient({ baseUrl: url, apiKey });
const created = await client.createTextToImage({ prompt: 'benchmark chair' });
const code = created.session_code;
const bare = new Agent();

async function viaClient(): Promise<void> {
  const s = await client.getTextToImage(code);
  if (s.session_code !== code) throw new Error('wrong session');
}

async function viaUndici(): Promise<void> {
  const res = await request(`${url}/tti-sessions/${code}`, {
    headers: { 'x-api-key': apiKey, accept: 'application/json' },
    dispatcher: bare,
  });
  const body = (await res.body.json()) as { data: { session_code: string } };
  if (body.data.session_code !== code) throw new Error('wrong session');
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

async function time(fn: () => Promise<void>, n: number): Promise<Sample> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

await time(viaClient, 300); // warm-up of both paths
await time(viaUndici, 300);
const clientRuns: Sample[] = [];
const undiciRuns: Sample[] = [];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    clientRuns.push(await time(viaClient, perRound));
    undiciRuns.push(await time(viaUndici, perRound));
  } else {
    undiciRuns.push(await time(viaUndici, perRound));
    clientRuns.push(await time(viaClient, perRound));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const perReq = (runs: Sample[], key: keyof Sample) => (median(runs.map((x) => x[key])) * 1000) / perRound;
const ratios = clientRuns.map((c, i) => c.wallMs / undiciRuns[i]!.wallMs);
console.log(`${rounds} alternating rounds of ${perRound} GET /tti-sessions/:code each (medians shown)`);
console.log(
  `bare undici.request : ${perReq(undiciRuns, 'wallMs').toFixed(1)} µs/request wall, ${perReq(undiciRuns, 'cpuMs').toFixed(1)} µs/request CPU in this process`,
);
console.log(
  `asset-studio client : ${perReq(clientRuns, 'wallMs').toFixed(1)} µs/request wall, ${perReq(clientRuns, 'cpuMs').toFixed(1)} µs/request CPU in this process`,
);
console.log(`ratio client/undici : ${median(ratios).toFixed(3)} (median of per-round wall-time ratios; goal <= 1.15)`);

await client.close();
await bare.close();
engine.kill('SIGTERM');
rmSync(dataDir, { recursive: true, force: true });
