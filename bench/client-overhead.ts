// bench/client-overhead: the same GET-session loop through our client and through bare undici.request,
// in the same run against the same engine (a child process). Prints both and the ratio (goal <= 1.15).
// Run: node bench/client-overhead.ts [--requests 2000] [--rounds 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { ServiceClient } from '../main/api/client.ts';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '5' } } });
const perRound = Number(values.requests);
const rounds = Number(values.rounds);
const apiKey = 'bench-key-0123456789';
const dataDir = mkdtempSync(join(tmpdir(), 'bench-overhead-'));

const engine = spawn(process.execPath, ['main/engine/run.ts'], {
  env: { ...process.env, ASSET_STUDIO_ENGINE_DATA_DIR: dataDir, ASSET_STUDIO_API_KEY: apiKey, ASSET_STUDIO_ENGINE_SPEED: '1' },
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
  const res = await request(`${url}/tti-sessions/${code}`, { headers: { 'x-api-key': apiKey, accept: 'application/json' }, dispatcher: bare });
  const body = (await res.body.json()) as { data: { session_code: string } };
  if (body.data.session_code !== code) throw new Error('wrong session');
}

async function time(fn: () => Promise<void>, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

await time(viaClient, 200); // warm-up of both paths
await time(viaUndici, 200);
const clientMs: number[] = [];
const undiciMs: number[] = [];
for (let r = 0; r < rounds; r++) {
  // Alternate the order so drift of the machine hits both sides alike.
  if (r % 2 === 0) {
    clientMs.push(await time(viaClient, perRound));
    undiciMs.push(await time(viaUndici, perRound));
  } else {
    undiciMs.push(await time(viaUndici, perRound));
    clientMs.push(await time(viaClient, perRound));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const perReq = (ms: number) => (ms * 1000) / perRound;
const c = perReq(median(clientMs));
const u = perReq(median(undiciMs));
console.log(`requests per round: ${perRound}, rounds: ${rounds} (median round shown)`);
console.log(`bare undici.request : ${u.toFixed(1)} µs/request`);
console.log(`asset-studio client : ${c.toFixed(1)} µs/request`);
console.log(`ratio client/undici : ${(c / u).toFixed(3)} (goal <= 1.15)`);

await client.close();
await bare.close();
engine.kill('SIGTERM');
rmSync(dataDir, { recursive: true, force: true });
