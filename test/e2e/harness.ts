// The e2e harness: the real web host (with its embedded engine, fast) serving a freshly built renderer,
// driven by Debian's Chromium through playwright-core. One browser and one fresh context per test file.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startWebHost, type RunningWebHost, type WebHostOptions } from '../../main/host/web-host.ts';
import { buildRenderer } from '../../renderer/build.ts';

// Browser globals used inside page.evaluate (this project type-checks tests without the DOM library).
declare const location: { hash: string };

export const SCREENSHOTS = resolve(import.meta.dirname, '..', '..', 'test-results', 'e2e');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Harness {
  host: RunningWebHost;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  dataDir: string;
  /** Console errors and failed requests of the page (a test can assert there are none). */
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * `webgl`: Chromium renders WebGL with SwiftShader (for the viewer) instead of running without a GPU.
 * `connectionSources`: the host's environment (e.g. ASSET_STUDIO_BASE_URL); `healthIntervalMs`: its reachability checks.
 */
export async function startHarness(
  options: { engineSpeed?: number; webgl?: boolean; connectionSources?: WebHostOptions['connectionSources']; healthIntervalMs?: number } = {},
): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'asset-studio-e2e-'));
  const dataDir = join(root, 'data');
  const { outDir } = await buildRenderer({ outDir: join(root, 'renderer'), minify: true });
  const host = await startWebHost({
    dataDir,
    rendererDir: outDir,
    serviceOptions: { engineSpeed: options.engineSpeed ?? 500, ...(options.healthIntervalMs !== undefined && { healthIntervalMs: options.healthIntervalMs }) },
    ...(options.connectionSources && { connectionSources: options.connectionSources }),
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      ...(options.webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : ['--disable-gpu']),
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) pageErrors.push(`HTTP ${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    host,
    browser,
    context,
    page,
    dataDir,
    pageErrors,
    async screenshot(name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    async close() {
      await context.close().catch(() => {});
      await browser.close().catch(() => {});
      await host.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Opens the app and waits until its first data is shown. */
export async function openApp(h: Harness, hash = ''): Promise<void> {
  await h.page.goto(h.host.url);
  // A budget, not a speed check: a loaded machine (2 cores, load 20) takes a while to build the first screen.
  await h.page.waitForSelector('#app-root[data-ready="true"]', { timeout: 30_000 });
  if (hash) {
    await h.page.evaluate((to) => (location.hash = to), hash);
  }
}

/** The text of every element the locator matches, now (no waiting), joined. */
export function textOf(locator: Locator): () => Promise<string> {
  return async () => (await locator.allTextContents()).join(' ').replace(/\s+/g, ' ').trim();
}

/** Retries an assertion on a value read from the page until it holds or the time runs out. */
export function poll<T>(read: () => Promise<T>, timeout = 10_000) {
  return expect.poll(read, { timeout, interval: 100 });
}
