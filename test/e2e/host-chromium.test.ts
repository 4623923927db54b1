// The web host in a real browser: the token link signs the page in, the bridge answers from the page,
// the token is not readable by scripts (HttpOnly), and the CSP blocks inline script.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebHost, type RunningWebHost } from '../../main/host/web-host.ts';
import { tempDir } from '../host/helpers.ts';
import { sharedBrowser } from './harness.ts';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bridge test</title><script src="/app.js" defer></script></head>
<body><pre id="out"></pre><script>window.inlineRan = true;</script></body></html>`;
const SCRIPT = `
const out = document.getElementById('out');
const socket = new WebSocket('ws://' + location.host + '/api/events');
const opened = new Promise((resolve) => { socket.onopen = () => resolve(true); socket.onerror = () => resolve(false); });
fetch('/api/call/app.info', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  .then((r) => r.json())
  .then(async (info) => {
    out.textContent = JSON.stringify({ info, cookie: document.cookie, inlineRan: window.inlineRan === true, socket: await opened });
    out.dataset.done = '1';
  });
`;

const dir = tempDir('chromium');
let host: RunningWebHost;
let browser: Browser;

beforeAll(async () => {
  const renderer = join(dir.path, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), PAGE);
  writeFileSync(join(renderer, 'app.js'), SCRIPT);
  [host, browser] = await Promise.all([
    startWebHost({ dataDir: join(dir.path, 'data'), rendererDir: renderer, serviceOptions: { engineSpeed: 500 } }),
    sharedBrowser(),
  ]);
});

afterAll(async () => {
  await host?.close();
  dir.remove();
});

it('signs in with the token link, calls the bridge from the page, and keeps the token from scripts', async () => {
  const page = await browser.newPage();
  await page.goto(host.url);
  expect(new URL(page.url()).search).toBe(''); // the token left the address bar
  await page.waitForSelector('#out[data-done]');
  const result = JSON.parse((await page.textContent('#out'))!) as {
    info: { transport: string };
    cookie: string;
    inlineRan: boolean;
    socket: boolean;
  };
  expect(result.info.transport).toBe('web');
  expect(result.cookie).toBe('');
  expect(result.inlineRan).toBe(false);
  expect(result.socket).toBe(true);
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'asset_studio_token')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
});
