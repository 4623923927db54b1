// The e2e harness: the real web host (with its embedded engine, fast) serving the renderer built once for the
// run (test/e2e/global-setup.ts), driven by Debian's Chromium through playwright-core. One browser per worker
// (per set of flags), shared by the files that worker runs; a fresh context, page and web host per test file.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { startWebHost, type RunningWebHost, type WebHostOptions } from '../../main/host/web-host.ts';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { buildRenderer } from '../../renderer/build.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const location: { hash: string };
declare const sessionStorage: { getItem(key: string): string | null };

/**
 * The time limit of every e2e test and hook: a cap for a hung test, never a measure of speed. On a loaded
 * 2-core machine (load average 20) one Chromium page with SwiftShader WebGL takes ten times its usual time:
 * the environment-lighting tests took up to 150 s there, the batch of 10 dropped files 73 s. A test file's
 * own waits stay shorter than this.
 */
export const E2E_BUDGET_MS = 300_000; // the e2e tier's testTimeout and hookTimeout (test/tiers.ts)

const RESULTS = resolve(import.meta.dirname, '..', '..', 'test-results');
export const SCREENSHOTS = join(RESULTS, 'e2e');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface HarnessOptions {
  engineSpeed?: number;
  /** Credits of the embedded engine's account at its first request (default 1000). */
  engineCredits?: number;
  /** Chromium renders WebGL with SwiftShader (for the viewer) instead of running without a GPU. */
  webgl?: boolean;
  /** The host's environment (e.g. ASSET_STUDIO_BASE_URL). */
  connectionSources?: WebHostOptions['connectionSources'];
  /** How often the host checks that the service is reachable. */
  healthIntervalMs?: number;
  /** The folder of test-results/ that screenshots go to: `e2e` unless told. */
  shots?: string;
  /** A copy of the run's renderer build of this harness's own, for a test that changes files in it. */
  ownRenderer?: boolean;
}

export interface Harness {
  host: RunningWebHost;
  /** The renderer build the host serves (the run's, shared: change files only in an `ownRenderer` copy). */
  rendererDir: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  /** Console errors and failed requests of the page (a test can assert there are none). */
  pageErrors: string[];
  /** The URL of every request the page made, in order (data: and blob: ones too). */
  requests: string[];
  /** The paths of the page's requests, from the `from`-th on. */
  requestedPaths(from?: number): string[];
  /** The requests that left this machine (anything but data:, blob:, 127.0.0.1 and localhost): a test expects none. */
  offHost(): string[];
  /** A screenshot of the whole page, or of one element, as test-results/<shots>/<name>.png; returns its path. */
  screenshot(name: string, element?: Locator): Promise<string>;
  /** Goes to a route of the app (`#/library`, `#/job/<id>`...). */
  go(hash: string): Promise<void>;
  /** Calls a bridge command from the page, as the UI does (same origin, the token of its sessionStorage as a Bearer header); resolves with its JSON answer. */
  call(command: string, input: unknown): Promise<any>;
  close(): Promise<void>;
}

const isLocal = (url: URL) =>
  url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1' || url.hostname === 'localhost';

/** The flags Chromium runs with here (no GPU; WebGL through SwiftShader when asked). */
export function chromiumArgs(webgl: boolean): string[] {
  return [
    '--headless',
    '--no-sandbox',
    ...(webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : ['--disable-gpu']),
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ];
}

const browsers = new Map<boolean, Promise<Browser>>();

/**
 * The worker's Chromium for these flags, launched at its first use and kept for the worker's next files (the
 * e2e tier runs without isolation); playwright ends it with the worker. A browser that went away is launched again.
 */
export function sharedBrowser(webgl = false): Promise<Browser> {
  let browser = browsers.get(webgl);
  if (browser === undefined) {
    browser = chromium.launch({ executablePath: CHROMIUM, headless: true, args: chromiumArgs(webgl) });
    browsers.set(webgl, browser);
    browser.then(
      (b) => b.on('disconnected', () => browsers.delete(webgl)),
      () => browsers.delete(webgl),
    );
  }
  return browser;
}

/**
 * The renderer built for this run by the tier's global setup (built here when a file runs without it), or a
 * copy of it in `root` when the harness needs its own.
 */
async function rendererFor(root: string, own: boolean): Promise<string> {
  const built = inject('rendererDir') as string | undefined;
  if (built === undefined) return (await buildRenderer({ outDir: join(root, 'renderer'), minify: true })).outDir;
  if (!own) return built;
  await cp(built, join(root, 'renderer'), { recursive: true });
  return join(root, 'renderer');
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'asset-studio-e2e-'));
  const dataDir = join(root, 'data');
  const rendererDir = await rendererFor(root, options.ownRenderer === true);
  const host = await startWebHost({
    dataDir,
    rendererDir,
    serviceOptions: {
      engineSpeed: options.engineSpeed ?? 500,
      ...(options.engineCredits !== undefined && { engineCredits: options.engineCredits }),
      ...(options.healthIntervalMs !== undefined && { healthIntervalMs: options.healthIntervalMs }),
    },
    ...(options.connectionSources && { connectionSources: options.connectionSources }),
  });
  const browser = await sharedBrowser(options.webgl === true);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) pageErrors.push(`HTTP ${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
  const shots = join(RESULTS, options.shots ?? 'e2e');
  mkdirSync(shots, { recursive: true });
  return {
    host,
    rendererDir,
    browser,
    context,
    page,
    dataDir,
    pageErrors,
    requests,
    requestedPaths: (from = 0) => requests.slice(from).map((u) => new URL(u).pathname),
    offHost: () => requests.filter((u) => !isLocal(new URL(u))),
    async screenshot(name, element) {
      const path = join(shots, `${name}.png`);
      await (element ? element.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
      return path;
    },
    async go(hash) {
      await page.evaluate((to) => (location.hash = to), hash);
    },
    call: (command, input) =>
      page.evaluate(
        async ([c, i, key]) => {
          // The token as the page keeps it (sessionStorage, from the link), sent as the UI sends it.
          const token = sessionStorage.getItem(key);
          const r = await fetch(`/api/call/${c}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify(i),
          });
          return r.json();
        },
        [command, input, WEB_PROTOCOL.tokenStorageKey] as const,
      ),
    async close(this: Harness) {
      await context.close().catch(() => {}); // the browser stays for the worker's next file
      await this.host.close(); // the host of the harness now (a test may have started it again, e.g. reconnect.test.ts)
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The harness of a test file: started before its tests (then the app opened at `open`, if given) and closed
 * after them. The object is filled in by that hook, so the tests use it as the result of startHarness.
 * `options` may be a function, read when the hook runs (after the file's earlier hooks).
 */
export function useHarness(options: HarnessOptions | (() => HarnessOptions) = {}, open?: string): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await startHarness(typeof options === 'function' ? options() : options));
    if (open !== undefined) await openApp(h, open);
  });
  afterAll(async () => {
    await h.close?.();
  });
  return h;
}

/** Opens the app and waits until its first data is shown. */
export async function openApp(h: Harness, hash = ''): Promise<void> {
  await h.page.goto(h.host.url);
  // A budget, not a speed check: a loaded machine (2 cores, load 20) takes a while to build the first screen.
  await h.page.waitForSelector('#app-root[data-ready="true"]', { timeout: 60_000 });
  if (hash) await h.go(hash);
}

/** The text of every element the locator matches, now (no waiting), joined. */
export function textOf(locator: Locator): () => Promise<string> {
  return async () => (await locator.allTextContents()).join(' ').replace(/\s+/g, ' ').trim();
}

/** The least time a wait may take before it fails: on a loaded 2-core machine (a CPU hog beside the suite) a page
 * or the engine can be ten times slower than usual. A cap for something that never comes, never a speed bar. */
export const LEAST_WAIT_MS = 120_000;

/** Retries an assertion on a value read from the page until it holds or the time (at least LEAST_WAIT_MS) runs out. */
export function poll<T>(read: () => Promise<T>, timeout = LEAST_WAIT_MS) {
  return expect.poll(read, { timeout: Math.max(timeout, LEAST_WAIT_MS), interval: 100 });
}
