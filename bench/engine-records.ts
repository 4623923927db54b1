// bench/engine-records: what one more session costs the engine's records when the folder already holds many.
// The cost of creating and finishing the 10,000th image-to-3D session vs the 100th:
//   1. through the engine's HTTP API (records in engine.db): POST /image-to-3d-sessions, then GET until
//      complete (a speed factor so the step ends at once), on an engine whose folder was seeded with N finished
//      sessions through the engine's own record code (openState);
//   2. at the store: the three saves a create and finish make (the new record; its input read; its step
//      finished), with the engine.db store and with the older state.json store (baseline, the whole state
//      rewritten durably per save), the old module taken from git (the commit before engine.db) into a temp folder.
// Rounds alternate between the folders (which goes first too); medians of wall and CPU time are shown. Goal: the 10,000th costs <= 1.2x the 100th.
// Usage: node bench/engine-records.ts [--rounds 30] [--small 100] [--large 10000] [--no-baseline]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startLocalEngine, type RunningLocalEngine } from '../main/engine/engine.ts';
import { encodePng } from '../main/engine/outputs/index.ts';
import type { ImageTo3dRecord } from '../main/engine/sessions/image-to-3d.ts';
import { openState } from '../main/engine/state.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    small: { type: 'string', default: '100' },
    large: { type: 'string', default: '10000' },
    'no-baseline': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(values.rounds);
const SIZES = [Number(values.small), Number(values.large)] as const;
const KEY = 'bench-records-key-0123456789';
const SPEED = 1e6; // the mesh step (60 s) ends in well under a millisecond
const work = mkdtempSync(join(tmpdir(), 'bench-engine-records-'));

/** A 64×64 picture with a subject on a plain background, as a data URI. */
function picture(): string {
  const size = 64;
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const inside = (x - 32) ** 2 + (y - 32) ** 2 < 400;
      rgba.set(inside ? [200, 60 + x, 40 + y, 255] : [255, 255, 255, 255], i);
    }
  return `data:image/png;base64,${encodePng(size, size, rgba).toString('base64')}`;
}
const IMAGE = picture();

async function api(engine: RunningLocalEngine, method: string, path: string, json?: unknown) {
  const res = await fetch(`${engine.url}${path}`, {
    method,
    headers: { 'x-api-key': KEY, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const body = (await res.json()) as { data: Record<string, unknown> };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** One session created and followed until complete over HTTP; returns its code. */
async function createAndFinish(engine: RunningLocalEngine): Promise<string> {
  const created = await api(engine, 'POST', '/image-to-3d-sessions', { image_url: IMAGE, resolution: 'low_poly' });
  const code = String(created.session_code);
  for (let i = 0; ; i++) {
    const read = await api(engine, 'GET', `/image-to-3d-sessions/${code}`);
    if (read.session_status === 'complete') return code;
    if (i > 2000) throw new Error(`session ${code} did not complete: ${JSON.stringify(read)}`);
    await new Promise((done) => setImmediate(done));
  }
}

// ---- a finished session, made by the engine, as the template of the seeded ones ---------------------------

const templateDir = join(work, 'template');
const templateEngine = await startLocalEngine({ dataDir: templateDir, apiKey: KEY, speed: SPEED });
const templateCode = await createAndFinish(templateEngine);
await templateEngine.close();
const templateStore = await openState(templateDir);
const TEMPLATE = structuredClone(templateStore.state.imageTo3d[templateCode]!);
const USER = TEMPLATE.user_id;
await templateStore.close();
const templateBytes = JSON.stringify(TEMPLATE).length;

let counter = 0;
function session(finished: boolean): ImageTo3dRecord {
  const code = `SESSION_bench${String(++counter).padStart(12, '0')}`;
  const rec = structuredClone(TEMPLATE);
  rec.session_code = code;
  rec._id = code.slice(8);
  if (!finished) {
    rec.status = 'queued';
    rec.step = { name: 'mesh', startedAt: Date.now() };
    rec.image = { ...rec.image, reading: true };
    rec.outputs = {};
  }
  return rec;
}

/** The engine's three saves of a create and finish, at the store: the new record, its input read, its step ended. */
async function storeCycle(
  state: { imageTo3d: Record<string, ImageTo3dRecord> },
  save: (...changed: object[]) => Promise<void>,
): Promise<void> {
  const rec = session(false);
  state.imageTo3d[rec.session_code] = rec;
  await save(rec);
  rec.image.reading = false;
  rec.image.settled_at = Date.now();
  await save(rec.image);
  delete rec.step;
  rec.status = 'complete';
  rec.outputs = TEMPLATE.outputs;
  await save(rec);
}

// ---- the stores ---------------------------------------------------------------------------------------

interface Subject {
  name: string;
  cycle(): Promise<void>;
  close(): Promise<void>;
}

async function seededSqlite(n: number): Promise<string> {
  const dir = join(work, `sqlite-${n}-${counter}`);
  const store = await openState(dir);
  store.state.credits[USER] = 1_000_000_000;
  for (let i = 0; i < n; i++) {
    const rec = session(true);
    store.state.imageTo3d[rec.session_code] = rec;
  }
  await store.save();
  await store.close();
  return dir;
}

async function httpSubject(n: number): Promise<Subject> {
  const dir = await seededSqlite(n);
  const engine = await startLocalEngine({ dataDir: dir, apiKey: KEY, speed: SPEED });
  return {
    name: `HTTP, engine.db     , ${n} sessions`,
    cycle: async () => {
      await createAndFinish(engine);
    },
    close: () => engine.close(),
  };
}

async function sqliteSubject(n: number): Promise<Subject> {
  const store = await openState(await seededSqlite(n));
  return {
    name: `store, engine.db    , ${n} sessions`,
    cycle: () => storeCycle(store.state, (...changed) => store.save(...changed)),
    close: () => store.close(),
  };
}

/** The state.json store of the commit before engine.db, from git, its one import pointed at this checkout. */
async function oldStateModule(): Promise<typeof import('../main/engine/state.ts')> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  const introduced = git('log', '--format=%H', '--reverse', '-S', 'engine.db', '--', 'main/engine/state.ts').split(
    '\n',
  )[0];
  const source = git('show', `${introduced}^:main/engine/state.ts`).replace(
    "'../durable/write-file.ts'",
    `'${pathToFileURL(join(ROOT, 'main/durable/write-file.ts')).href}'`,
  );
  if (!source.includes("'state.json'")) throw new Error('the old module is not the state.json store');
  const file = join(work, 'old-state.ts');
  writeFileSync(file, source);
  return import(pathToFileURL(file).href);
}

async function jsonSubject(n: number, old: Awaited<ReturnType<typeof oldStateModule>>): Promise<Subject> {
  const dir = join(work, `json-${n}`);
  const store = await old.openState(dir);
  store.state.credits[USER] = 1_000_000_000;
  for (let i = 0; i < n; i++) {
    const rec = session(true);
    store.state.imageTo3d[rec.session_code] = rec;
  }
  await store.save();
  return {
    name: `store, state.json   , ${n} sessions`,
    cycle: () => storeCycle(store.state, () => store.save()),
    close: () => store.close(),
  };
}

// ---- the run ---------------------------------------------------------------------------------------------

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  const groups: Subject[][] = [
    [await httpSubject(SIZES[0]), await httpSubject(SIZES[1])],
    [await sqliteSubject(SIZES[0]), await sqliteSubject(SIZES[1])],
  ];
  if (!values['no-baseline']) {
    const old = await oldStateModule();
    groups.push([await jsonSubject(SIZES[0], old), await jsonSubject(SIZES[1], old)]);
  }
  const times = new Map<Subject, { wall: number[]; cpu: number[] }>();
  for (const group of groups) for (const subject of group) times.set(subject, { wall: [], cpu: [] });
  for (let round = -2; round < ROUNDS; round++) {
    for (const group of groups) {
      // Which folder goes first alternates, so that neither always follows the other's writes.
      for (const subject of round % 2 === 0 ? group : [...group].reverse()) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        await subject.cycle();
        const wall = performance.now() - started;
        const used = process.cpuUsage(cpu);
        if (round < 0) continue;
        times.get(subject)!.wall.push(wall);
        times.get(subject)!.cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  console.log(
    `${ROUNDS} alternating rounds (after 2 warm-up rounds) of one image-to-3D session created and finished; ` +
      `a finished session's record is ${templateBytes} bytes of JSON (medians shown)`,
  );
  for (const [small, large] of groups) {
    const a = times.get(small!)!;
    const b = times.get(large!)!;
    const line = (name: string, t: { wall: number[]; cpu: number[] }) =>
      console.log(`${name} : ${median(t.wall).toFixed(2)} ms wall, ${median(t.cpu).toFixed(2)} ms CPU of this process`);
    line(small!.name, a);
    line(large!.name, b);
    console.log(
      `  ratio ${SIZES[1]}th / ${SIZES[0]}th: ${(median(b.wall) / median(a.wall)).toFixed(2)} wall, ` +
        `${(median(b.cpu) / median(a.cpu)).toFixed(2)} CPU (goal <= 1.2)`,
    );
  }
  for (const group of groups) for (const subject of group) await subject.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
