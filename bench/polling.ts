// bench/polling: 50 jobs of mixed kinds and durations on the embedded engine (speed factor on), followed
// three ways in one run, each on a fresh engine:
//   1. baseline: the official client's strategy, a fixed 5-second poll per job (scaled by the speed factor);
//   2. our tracker, polling (adaptive; timings scaled by the same factor);
//   3. our tracker with webhooks from the engine.
// For each: reads sent, and the delay between a job finishing on the engine and the follower knowing it.
// Goal: (2) at most half the reads of (1), with p95 delay <= max(2 s, 10% of the job's duration) in
// service time; (3) at most 2 reads per job.
// The engine runs in a child process. Run: node bench/polling.ts [--speed 20] [--jobs 50]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { ResourceKind } from '../shared/contract/index.ts';
import { ServiceClient } from '../main/api/client.ts';
import { RequestBudget } from '../main/jobs/budget.ts';
import { observe, type TrackedRef } from '../main/jobs/resources.ts';
import { DEFAULT_TIMING, scaleTiming } from '../main/jobs/schedule.ts';
import { Submitter } from '../main/jobs/submit.ts';
import { JobTracker } from '../main/jobs/tracker.ts';
import { startWebhookReceiver } from '../main/jobs/webhook-receiver.ts';
import { openDatabase } from '../main/store/database.ts';
import { buildGlb, encodePng } from '../main/engine/outputs/index.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { riggedCharacter } from '../test/fixtures.ts';

const { values } = parseArgs({
  options: { speed: { type: 'string', default: '20' }, jobs: { type: 'string', default: '50' } },
});
const SPEED = Number(values.speed);
const JOBS = Number(values.jobs);
const KEY = 'bench-polling-key-0123456789';
const PNG = `data:image/png;base64,${encodePng(2, 2, new Uint8Array(16).fill(128)).toString('base64')}`;
const SECRET = `whsec_${Buffer.from('polling bench webhook secret!!!!').toString('base64')}`;
const READS = ['getImageTo3d', 'getTextToImage', 'getAnimation', 'getV3Session', 'getMesh', 'listImageTo3d'] as const;

/** The animation and retopology inputs, served on loopback: the engine reads its inputs, as the service does. */
const INPUTS: Record<string, Buffer> = {
  // A rigged character: the engine refuses a mesh with no bones (its own generated models included).
  '/hero.fbx': riggedCharacter(),
  '/a.glb': buildGlb({ seed: 'bench', targetFaces: 500 }),
};
const inputServer = createServer((req, res) => {
  const body = INPUTS[req.url ?? ''];
  if (body === undefined) res.writeHead(404).end();
  else res.writeHead(200, { 'content-length': body.length }).end(body);
});
await new Promise<void>((resolve) => inputServer.listen(0, '127.0.0.1', resolve));
inputServer.unref();
const INPUT_BASE = `http://127.0.0.1:${(inputServer.address() as AddressInfo).port}`;

/** The mix: image-to-3D, text-to-image, animation uploads and swift retopology, interleaved. */
type Create = {
  endpoint: 'createImageTo3d' | 'createTextToImage' | 'uploadAnimationMesh' | 'createRetopology';
  body: unknown;
  kind: ResourceKind;
};
function mix(n: number): Create[] {
  const kinds: Create[] = [
    { endpoint: 'createImageTo3d', body: { image_url: PNG }, kind: 'image_to_3d' },
    { endpoint: 'createTextToImage', body: { prompt: 'a crate' }, kind: 'text_to_image' },
    { endpoint: 'createImageTo3d', body: { image_url: PNG, resolution: 'low_poly' }, kind: 'image_to_3d' },
    { endpoint: 'uploadAnimationMesh', body: { mesh_url: `${INPUT_BASE}/hero.fbx` }, kind: 'animation_session' },
    { endpoint: 'createTextToImage', body: { prompt: 'a barrel' }, kind: 'text_to_image' },
    {
      endpoint: 'createRetopology',
      body: { type: 'retopology', input: { mesh: `${INPUT_BASE}/a.glb`, model: 'swift' } },
      kind: 'v3_session',
    },
  ];
  return Array.from({ length: n }, (_, i) => kinds[i % kinds.length]!);
}

interface Outcome {
  kind: ResourceKind;
  /** Service-time duration of the job (scaled back by the speed factor), ms. */
  durationMs: number;
  /** Service-time delay between the end on the engine and the follower knowing it, ms. */
  delayMs: number;
}

/** When the engine finished the job: the `updated_at` of its final state. */
function finishedAt(value: unknown): number {
  const v = value as { updated_at?: string; created_at?: string };
  return Date.parse(v.updated_at ?? '');
}
function createdAt(value: unknown): number {
  return Date.parse((value as { created_at: string }).created_at);
}

/** The engine runs in its own process, as the service would: its work does not slow the follower down. */
interface Engine {
  url: string;
  legacyUrl: string;
  /** Reads (GETs of sessions) it has answered so far. */
  reads(): Promise<number>;
  /** Where it sends webhooks. */
  webhook(url: string, secret: string): Promise<void>;
}

async function withEngine<T>(fn: (engine: Engine, client: ServiceClient, dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-polling-'));
  const child = spawn(process.execPath, ['main/engine/run.ts'], {
    env: {
      ...process.env,
      ASSET_STUDIO_ENGINE_DATA_DIR: join(dir, 'engine'),
      ASSET_STUDIO_API_KEY: KEY,
      ASSET_STUDIO_ENGINE_SPEED: String(SPEED),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const { url, legacyUrl } = JSON.parse(first) as { url: string; legacyUrl: string };
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as { byEndpoint: Record<string, number> };
  };
  const engine: Engine = {
    url,
    legacyUrl,
    reads: async () => {
      const { byEndpoint } = await control('/__engine/faults');
      return READS.reduce((n, e) => n + (byEndpoint[e] ?? 0), 0);
    },
    webhook: async (to, secret) => void (await control('/__engine/webhook', { url: to, secret })),
  };
  const client = new ServiceClient({ baseUrl: url, legacyBaseUrl: legacyUrl, apiKey: KEY });
  try {
    return await fn(engine, client, dir);
  } finally {
    await client.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The official client's way: every job polled every 5 s (scaled), each on its own. */
async function baseline(): Promise<{ reads: number; outcomes: Outcome[] }> {
  return withEngine(async (engine, client) => {
    const interval = 5000 / SPEED;
    const outcomes = await Promise.all(
      mix(JOBS).map(async (c) => {
        const created = (await client.call(c.endpoint, { body: c.body })) as Record<string, unknown>;
        const ref: TrackedRef = { kind: c.kind, id: String(created.session_code ?? created._id) };
        for (;;) {
          await sleep(interval);
          const seen = await observe(client, ref);
          if (seen.status.final) {
            const end = finishedAt(seen.value);
            return {
              kind: c.kind,
              durationMs: (end - createdAt(seen.value)) * SPEED,
              delayMs: (Date.now() - end) * SPEED,
            };
          }
        }
      }),
    );
    return { reads: await engine.reads(), outcomes };
  });
}

/** Our tracker, polling or woken by webhooks. */
async function tracked(webhooks: boolean): Promise<{ reads: number; outcomes: Outcome[] }> {
  return withEngine(async (engine, client, dir) => {
    const store = openDatabase(join(dir, 'app.db'));
    const tracker = new JobTracker({
      store,
      client,
      timing: scaleTiming(DEFAULT_TIMING, SPEED),
      budget: new RequestBudget({ maxConcurrent: 8, maxPerSecond: 8 * SPEED }),
      webhooks: () => webhooks,
    });
    const receiver = webhooks
      ? await startWebhookReceiver({ store, secret: SECRET, onEvent: (e) => tracker.wake(e.sessionId, e.newStatus) })
      : undefined;
    if (receiver) await engine.webhook(receiver.url, SECRET);
    const known = new Map<string, number>();
    tracker.on('finished', (j) => known.set(j.id, Date.now()));
    tracker.on('failed', (j) => known.set(j.id, Date.now()));
    const submitter = new Submitter({ store, client, tracker });
    tracker.start();
    const ids: string[] = [];
    for (const c of mix(JOBS))
      ids.push((await submitter.submit(c.endpoint, { body: c.body }, { label: c.endpoint })).job!.id);
    const jobs = await tracker.waitFor(ids, AbortSignal.timeout(600_000));
    const outcomes = jobs.map((j) => {
      const end = finishedAt(j.result);
      return {
        kind: j.kind,
        durationMs: (end - createdAt(j.result)) * SPEED,
        delayMs: (known.get(j.id)! - end) * SPEED,
      };
    });
    await tracker.stop();
    await receiver?.close();
    store.close();
    return { reads: await engine.reads(), outcomes };
  });
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function report(name: string, r: { reads: number; outcomes: Outcome[] }) {
  const delays = r.outcomes.map((o) => o.delayMs);
  // Delay relative to the allowed bound max(2 s, 10% of the job's duration): <= 1 is within the goal.
  const ratios = r.outcomes.map((o) => o.delayMs / Math.max(2000, 0.1 * o.durationMs));
  const line = `${name.padEnd(26)} reads ${String(r.reads).padStart(5)} (${(r.reads / JOBS).toFixed(2)}/job)  delay p50 ${(percentile(delays, 50) / 1000).toFixed(2)} s  p95 ${(percentile(delays, 95) / 1000).toFixed(2)} s  p95 of delay/bound ${percentile(ratios, 95).toFixed(2)}`;
  console.log(line);
  if (process.env.BENCH_DETAIL) {
    for (const kind of new Set(r.outcomes.map((o) => o.kind))) {
      const mine = r.outcomes.filter((o) => o.kind === kind);
      console.log(
        `    ${kind.padEnd(20)} n=${mine.length} worst delay/bound ${Math.max(...mine.map((o) => o.delayMs / Math.max(2000, 0.1 * o.durationMs))).toFixed(2)}`,
      );
    }
  }
  return { reads: r.reads, p95ratio: percentile(ratios, 95) };
}

console.log(
  `${JOBS} jobs (image-to-3D, text-to-image, animation, swift retopology), engine speed ${SPEED}; delays in service time (x${SPEED})`,
);
const base = report('baseline: fixed 5 s poll', await baseline());
const ours = report('tracker (polling)', await tracked(false));
const hooks = report('tracker + webhooks', await tracked(true));
console.log(
  `reads vs baseline: ${(ours.reads / base.reads).toFixed(2)} (goal <= 0.5); p95 delay/bound ${ours.p95ratio.toFixed(2)} (goal <= 1)`,
);
console.log(`webhooks: ${(hooks.reads / JOBS).toFixed(2)} reads per job (goal <= 2)`);
