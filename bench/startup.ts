// Startup of the app through the web host, in headless Chromium:
//  - cold start: from spawning the host process (`node scripts/start.ts --web`) to the first interactive
//    screen, i.e. the app root's `data-ready` (set by the UI when its first data is shown);
//  - 1,000 jobs: the same with 1,000 jobs in the database, until the library shows its first page of
//    rows and the total "1000 jobs";
//  - 1,000 jobs with thumbnails: the same with a distinct cached picture per job (the library's thumbnail
//    output), until also every picture of the first page that is in view is decoded (the 1,000 jobs round
//    without pictures, measured in the same run, is the baseline it is compared with).
// Baselines measured in the same run: a bare `node -e` process start, and Chromium loading a one-line
// page from a bare node:http server (no app, no engine). Needs the renderer build (npm run build).
// `--before DIR`: also the 1,000 jobs round of an earlier version in the same run, from DIR (a checkout
// of an earlier commit, e.g. `git archive <commit> | tar -x -C DIR`, with node_modules and its renderer
// built there), its database seeded by its own store code.
// Usage: node bench/startup.ts [--rounds N] [--before DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { defaultCacheDir, DownloadCache } from '../main/cache/download-cache.ts';
import { keepLocalOutput } from '../main/cache/local-output.ts';
import { renderPreviewImage } from '../main/engine/outputs/pictures.ts';
import { databasePath, openDatabase } from '../main/store/database.ts';
import { DEFAULT_RENDERER_DIR, isBuilt } from '../main/host/static.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const JOBS = 1000;
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, before: { type: 'string' } } });
const rounds = Number(values.rounds);
const BEFORE = values.before === undefined ? undefined : resolve(values.before);

if (!isBuilt(DEFAULT_RENDERER_DIR)) {
  console.error('The renderer is not built: run "npm run build" first.');
  process.exit(2);
}

/** ms from spawn until the first stdout line matching `pattern`; the child is returned running. */
function spawnUntil(
  args: string[],
  pattern: RegExp,
  cwd = ROOT,
): Promise<{ ms: number; match: RegExpMatchArray; stop(): Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) resolveStart({ ms: performance.now() - started, match, stop: () => (child.kill('SIGTERM'), exited) });
    });
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited (${code}) before printing ${pattern}: ${out}`)),
    );
  });
}

type Seed = 'none' | 'jobs' | 'thumbnails' | 'before';

async function seedJobs(dataDir: string, thumbnails: boolean, root = ROOT): Promise<void> {
  const open: typeof openDatabase =
    root === ROOT ? openDatabase : (await import(join(root, 'main', 'store', 'database.ts'))).openDatabase;
  const store = open(databasePath(dataDir));
  const now = Date.now();
  store.transaction(() => {
    for (let i = 0; i < JOBS; i++) {
      store.jobs.insert({
        id: `job_bench${i}`,
        kind: 'text_to_image',
        label: `bench job ${i}`,
        remoteId: `SESSION_bench${i}`,
        state: 'succeeded',
        rawStatus: 'completed',
        final: true,
        nextPollAt: null,
        now: now - i * 1000,
      });
    }
  });
  if (thumbnails) {
    // A distinct 192 × 192 picture per job, kept as the library keeps a render: the session's `thumbnail` output.
    const cache = new DownloadCache({ store, dir: defaultCacheDir(dataDir), notice: () => {} });
    for (let i = 0; i < JOBS; i++) {
      await keepLocalOutput(cache, store, {
        sessionId: `SESSION_bench${i}`,
        jobId: `job_bench${i}`,
        kind: 'thumbnail',
        bytes: renderPreviewImage(`bench ${i}`, 192, 192),
      });
    }
    await cache.close();
  }
  store.close();
}

/** Every picture of the library's first page that is in view has been decoded (the rest load lazily). */
const PICTURES_SHOWN =
  "[...document.querySelectorAll('.job-row .thumb img')].filter((img) => img.getBoundingClientRect().top < innerHeight).every((img) => img.complete && img.naturalWidth > 0) && document.querySelectorAll('.job-row .thumb img').length > 0";

/** Spawn the web host, open it, wait for `ready` (a selector, or a function of the page). */
async function appRound(browser: Browser, seed: Seed): Promise<{ hostUp: number; ready: number; pageOnly: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  try {
    const root = seed === 'before' ? BEFORE! : ROOT;
    if (seed !== 'none') await seedJobs(dataDir, seed === 'thumbnails', root);
    const started = performance.now();
    const host = await spawnUntil(
      ['scripts/start.ts', '--web', '--no-build', '--data-dir', dataDir],
      /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/,
      root,
    );
    const page = await browser.newPage();
    const opened = performance.now();
    await page.goto(host.match[1]!);
    await page.waitForSelector('[data-ready]', { timeout: 30_000 });
    if (seed !== 'none') {
      await page.waitForSelector('[data-job-id]', { timeout: 30_000 });
      await page.waitForFunction(`document.body.innerText.includes('${JOBS} jobs')`, undefined, { timeout: 30_000 });
    }
    if (seed === 'thumbnails') await page.waitForFunction(PICTURES_SHOWN, undefined, { timeout: 30_000 });
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
  await appRound(browser, 'none'); // warm-up: file cache, Chromium's first page
  const bare: { process: number; page: number }[] = [];
  const cold: Awaited<ReturnType<typeof appRound>>[] = [];
  const seeded: Awaited<ReturnType<typeof appRound>>[] = [];
  const pictured: Awaited<ReturnType<typeof appRound>>[] = [];
  const before: Awaited<ReturnType<typeof appRound>>[] = [];
  for (let i = 0; i < rounds; i++) {
    if (BEFORE !== undefined) before.push(await appRound(browser, 'before'));
    bare.push(await bareRound(browser));
    cold.push(await appRound(browser, 'none'));
    seeded.push(await appRound(browser, 'jobs'));
    pictured.push(await appRound(browser, 'thumbnails'));
  }
  console.log(`startup, median of ${rounds} rounds (node ${process.version}, headless Chromium)`);
  console.log('                                         process up   page ready   total');
  console.log(
    `baseline: node -e + bare page            ${fmt(median(bare.map((b) => b.process)))}   ${fmt(median(bare.map((b) => b.page)))}   ${fmt(median(bare.map((b) => b.process + b.page)))}`,
  );
  console.log(
    `web host, empty library → [data-ready]   ${fmt(median(cold.map((r) => r.hostUp)))}   ${fmt(median(cold.map((r) => r.pageOnly)))}   ${fmt(median(cold.map((r) => r.ready)))}`,
  );
  console.log(
    `web host, ${JOBS} jobs → first page + total ${fmt(median(seeded.map((r) => r.hostUp)))}   ${fmt(median(seeded.map((r) => r.pageOnly)))}   ${fmt(median(seeded.map((r) => r.ready)))}`,
  );
  console.log(
    `  … with thumbnails → + pictures in view  ${fmt(median(pictured.map((r) => r.hostUp)))}   ${fmt(median(pictured.map((r) => r.pageOnly)))}   ${fmt(median(pictured.map((r) => r.ready)))}`,
  );
  if (BEFORE !== undefined)
    console.log(
      `earlier version, ${JOBS} jobs → first page ${fmt(median(before.map((r) => r.hostUp)))}   ${fmt(median(before.map((r) => r.pageOnly)))}   ${fmt(median(before.map((r) => r.ready)))}`,
    );
  console.log(
    `thumbnails / no thumbnails (total): ${(median(pictured.map((r) => r.ready)) / median(seeded.map((r) => r.ready))).toFixed(2)}x`,
  );
  if (BEFORE !== undefined)
    console.log(
      `thumbnails / earlier version (total): ${(median(pictured.map((r) => r.ready)) / median(before.map((r) => r.ready))).toFixed(2)}x`,
    );
} finally {
  await browser.close();
}
