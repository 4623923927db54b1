// The web host in a real browser: the token link signs the page in (the page keeps the token in sessionStorage
// and sends it as a header and a WebSocket subprotocol), no cookie carries the token (a browser would send it to
// every other port of 127.0.0.1), and the CSP blocks inline script.
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
const url = new URL(location.href);
if (url.searchParams.has('token')) sessionStorage.setItem('asset-studio-token', url.searchParams.get('token'));
history.replaceState(null, '', url.pathname);
const token = sessionStorage.getItem('asset-studio-token');
const socket = new WebSocket('ws://' + location.host + '/api/events', ['asset-studio', 'asset-studio.token.' + token]);
const opened = new Promise((resolve) => { socket.onopen = () => resolve(socket.protocol); socket.onerror = () => resolve(false); });
const call = (headers) => fetch('/api/call/app.info', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
Promise.all([call({ authorization: 'Bearer ' + token }).then((r) => r.json()), call({}).then((r) => r.status)])
  .then(async ([info, cookieOnly]) => {
    out.textContent = JSON.stringify({ info, cookieOnly, cookie: document.cookie, inlineRan: window.inlineRan === true, socket: await opened });
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
    cookieOnly: number;
    cookie: string;
    inlineRan: boolean;
    socket: string | false;
  };
  expect(result.info.transport).toBe('web');
  expect(result.cookieOnly).toBe(401); // the cookies the browser sends by itself do not sign a request in
  expect(result.cookie).toBe('');
  expect(result.inlineRan).toBe(false);
  expect(result.socket).toBe('asset-studio');
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.value.includes(host.token))).toBeUndefined();
  // No cookie at all (issue #33): a cookie of 127.0.0.1 reaches every port there, so the cache's read capability
  // is in the URLs main gives the page instead (main/host/token.ts).
  expect(cookies).toEqual([]);
  await page.close();
});
