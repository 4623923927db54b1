// Startup of the app through the web host, in headless Chromium:
//  - cold start: from spawning the host process (`node scripts/start.ts --web`) to the first interactive
//    screen, i.e. the app root's `data-ready` (set by the UI when its first data is shown);
//  - 1,000 jobs: the same with 1,000 jobs in the database, until the library shows its first page of
//    rows and the total "1000 jobs".
// Baselines measured in the same run: a bare `node -e` process start, and Chromium loading a one-line
// page from a bare node:http server (no app, no engine). Needs the renderer build (npm run build).
// Usage: node bench/startup.ts [--rounds N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { databasePath, openDatabase } from '../main/store/database.ts';
import { DEFAULT_RENDERER_DIR, isBuilt } from '../main/host/static.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const JOBS = 1000;
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);

if (!isBuilt(DEFAULT_RENDERER_DIR)) {
  console.error('The renderer is not built: run "npm run build" first.');
  process.exit(2);
}

/** ms from spawn until the first stdout line matching `pattern`; the child is returned running. */
function spawnUntil(args: string[], pattern: RegExp): Promise<{ ms: number; match: RegExpMatchArray; stop(): Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) resolveStart({ ms: performance.now() - started, match, stop: () => (child.kill('SIGTERM'), exited) });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before printing ${pattern}: ${out}`)));
  });
}

function seedJobs(dataDir: string): void {
  const store = openDatabase(databasePath(dataDir));
  const now = Date.now();
  store.transaction(() => {
    for (let i = 0; i < JOBS; i++) {
      store.jobs.insert({ kind: 'text_to_image', label: `bench job ${i}`, remoteId: `SESSION_bench${i}`, state: 'succeeded', rawStatus: 'completed', final: true, nextPollAt: null, now: now - i * 1000 });
    }
  });
  store.close();
}

/** Spawn the web host, open it, wait for `ready` (a selector, or a function of the page). */
async function appRound(browser: Browser, seed: boolean): Promise<{ hostUp: number; ready: number; pageOnly: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  try {
    if (seed) seedJobs(dataDir);
    const started = performance.now();
    const host = await spawnUntil(['scripts/start.ts', '--web', '--no-build', '--data-dir', dataDir], /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
    const page = await browser.newPage();
    const opened = performance.now();
    await page.goto(host.match[1]!);
    await page.waitForSelector('[data-ready]', { timeout: 30_000 });
    if (seed) {
      await page.waitForSelector('[data-job-id]', { timeout: 30_000 });
      await page.waitForFunction(`document.body.innerText.includes('${JOBS} jobs')`, undefined, { timeout: 30_000 });
    }
    const ready = performance.now();
    await page.close();
    await host.stop();
    return { hostUp: host.ms, ready: ready - started, pageOnly: ready - opened };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function bareRound(browser: Browser): Promise<{ process: number; page: number }> {
  const node = await spawnUntil(['-e', 'console.log("up")'], /up/);
  await node.stop();
  const server = createServer((_req, res) => res.end('<!doctype html><p data-ready>bare</p>'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const page = await browser.newPage();
  const opened = performance.now();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForSelector('[data-ready]');
  const ms = performance.now() - opened;
  await page.close();
  server.close();
  return { process: node.ms, page: ms };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${Math.round(ms)} ms`.padStart(8);

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  await appRound(browser, false); // warm-up: file cache, Chromium's first page
  const bare: { process: number; page: number }[] = [];
  const cold: Awaited<ReturnType<typeof appRound>>[] = [];
  const seeded: Awaited<ReturnType<typeof appRound>>[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push(await bareRound(browser));
    cold.push(await appRound(browser, false));
    seeded.push(await appRound(browser, true));
  }
  console.log(`startup, median of ${rounds} rounds (node ${process.version}, headless Chromium)`);
  console.log('                                         process up   page ready   total');
  console.log(`baseline: node -e + bare page            ${fmt(median(bare.map((b) => b.process)))}   ${fmt(median(bare.map((b) => b.page)))}   ${fmt(median(bare.map((b) => b.process + b.page)))}`);
  console.log(`web host, empty library → [data-ready]   ${fmt(median(cold.map((r) => r.hostUp)))}   ${fmt(median(cold.map((r) => r.pageOnly)))}   ${fmt(median(cold.map((r) => r.ready)))}`);
  console.log(`web host, ${JOBS} jobs → first page + total ${fmt(median(seeded.map((r) => r.hostUp)))}   ${fmt(median(seeded.map((r) => r.pageOnly)))}   ${fmt(median(seeded.map((r) => r.ready)))}`);
} finally {
  await browser.close();
}
