// Start-up cost of short `asset-studio` commands, as a user runs them (`node bin/asset-studio.js …`):
//  - `--help` and `key status` (no service, no engine: nothing but the command table and the data folder);
//  - `list` against a service: a tiny stand-in node:http server in this process answering the list endpoint
//    (SERVICE_API.md §6), with an address and a key file, so no embedded engine is started;
//  - `--help` with the compile cache turned off (NODE_DISABLE_COMPILE_CACHE=1): the first run after an
//    install or an update, when every module is compiled again.
// The launcher runs the command bundled into dist/cli/ (bin/cli-entry.js; the bench builds it first when the
// sources changed); the same three commands from the sources (ASSET_STUDIO_CLI_FROM_SOURCE=1, as `npm run cli`
// runs them, and as every start did before the bundle) are the second baseline.
// Baseline in the same run: a bare `node -e 0`. Each round runs every case once, in an order that alternates
// from round to round; one warm-up run of each comes first (it fills the compile cache). Wall time is measured
// here, from spawn to exit; peak memory is the child's maximum resident set (GNU time's %M, /usr/bin/time).
// Printed: the median of each, and its ratio to `node -e 0`.
// Usage: node bench/cli-startup.ts [--rounds N]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCli } from '../scripts/build-cli.ts';
import { emptySessionList } from '../test/service-answers.ts';

const ROOT = resolve(import.meta.dirname, '..');
const LAUNCHER = join(ROOT, 'bin', 'asset-studio.js');
const TIME = '/usr/bin/time';
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '9' } } });
const rounds = Number(values.rounds);
if (!existsSync(TIME)) {
  console.error(`${TIME} (GNU time) is needed for the peak memory of the children.`);
  process.exit(2);
}

await buildCli({ ifStale: true });
const work = mkdtempSync(join(tmpdir(), 'cli-startup-'));
const dataDir = join(work, 'data');
const keyFile = join(work, 'key');
writeFileSync(keyFile, 'bench-key\n', { mode: 0o600 });

const service = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (req.method !== 'GET' || url.pathname !== '/image-to-3d-sessions') {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Not Found', message: 'no such endpoint', statusCode: 404 }));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    emptySessionList({
      page: Number(url.searchParams.get('page') ?? 0),
      limit: Number(url.searchParams.get('limit') ?? 10),
    }),
  );
});
await new Promise<void>((done) => service.listen(0, '127.0.0.1', done));
const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;

interface Case {
  name: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}
const CASES: Case[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'asset-studio --help', args: [LAUNCHER, '--help'] },
  { name: 'asset-studio key status', args: [LAUNCHER, 'key', 'status', '--data-dir', dataDir] },
  {
    name: 'asset-studio list (service)',
    args: [LAUNCHER, 'list', '--base-url', baseUrl, '--api-key-file', keyFile, '--data-dir', dataDir],
  },
  { name: '--help, no compile cache', args: [LAUNCHER, '--help'], env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
];
const FROM_SOURCES = { ASSET_STUDIO_CLI_FROM_SOURCE: '1' };
CASES.push(
  ...CASES.filter((c) => c.name.startsWith('asset-studio')).map((c) => ({
    name: `${c.name.replace('asset-studio ', '')}, from the sources`,
    args: c.args,
    env: FROM_SOURCES,
  })),
);

/** Wall ms and peak RSS (MiB) of one run; a failing command stops the bench. */
function runOnce(c: Case): Promise<{ ms: number; mib: number }> {
  const timeOut = join(work, 'time.txt');
  const env = { ...process.env, ...c.env };
  delete env.NODE_OPTIONS;
  if (!c.env?.ASSET_STUDIO_CLI_FROM_SOURCE) delete env.ASSET_STUDIO_CLI_FROM_SOURCE;
  delete env.ASSET_STUDIO_BASE_URL;
  delete env.ASSET_STUDIO_API_KEY;
  const started = performance.now();
  const child = spawn(TIME, ['-o', timeOut, '-f', '%M', process.execPath, ...c.args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((done, fail) => {
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) {
        fail(new Error(`${c.name} exited with ${code}: ${stderr}`));
        return;
      }
      const kib = Number(readFileSync(timeOut, 'utf8').trim().split('\n').at(-1));
      done({ ms, mib: kib / 1024 });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

try {
  for (const c of CASES) await runOnce(c); // warm-up: fills the compile cache, creates the data folder
  const results = new Map(CASES.map((c) => [c.name, { ms: [] as number[], mib: [] as number[] }]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? CASES : [...CASES].reverse();
    for (const c of order) {
      const r = await runOnce(c);
      results.get(c.name)!.ms.push(r.ms);
      results.get(c.name)!.mib.push(r.mib);
    }
  }
  const base = results.get('node -e 0')!;
  const baseMs = median(base.ms);
  const baseMib = median(base.mib);
  console.log(`${rounds} rounds, medians (wall from spawn to exit; peak RSS of the child)`);
  console.log(
    `${'command'.padEnd(36)} ${'wall'.padStart(9)} ${'× node'.padStart(7)} ${'peak RSS'.padStart(10)} ${'× node'.padStart(7)}`,
  );
  for (const c of CASES) {
    const r = results.get(c.name)!;
    const ms = median(r.ms);
    const mib = median(r.mib);
    console.log(
      `${c.name.padEnd(36)} ${`${(ms / 1000).toFixed(3)} s`.padStart(9)} ${(ms / baseMs).toFixed(1).padStart(7)} ${`${mib.toFixed(1)} MiB`.padStart(10)} ${(mib / baseMib).toFixed(1).padStart(7)}`,
    );
  }
} finally {
  service.close();
  rmSync(work, { recursive: true, force: true });
}
