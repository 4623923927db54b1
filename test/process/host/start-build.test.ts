import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WEB_PROTOCOL } from '../../../shared/bridge/web-protocol.ts';
import { tempDir } from '../../helpers.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { raw } from '../../host/helpers.ts';
import { type Started, startWebProcess } from './start-process.ts';

const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** `node scripts/start.ts --web` (with the build), until it prints its address; fails with its output if it ends. */
async function startWeb(dataDir: string, rendererDir: string): Promise<Started> {
  const started = await startWebProcess(['--data-dir', dataDir, '--renderer-dir', rendererDir], cleanEnv(), cleanup);
  if ('code' in started) throw new Error(`the start ended with ${started.code}:\n${started.output}`);
  return started;
}

async function stop(started: Started): Promise<void> {
  const ended = once(started.child, 'exit');
  started.child.kill('SIGTERM');
  await ended;
}

/**
 * The app's page and its script, as a browser gets them from the printed link (the page's files need no token;
 * the page keeps the link's token and sends it with each bridge call), and one bridge call with that token.
 */
async function servesTheApp(url: URL): Promise<void> {
  const port = Number(url.port);
  const page = await raw(port, { path: `${url.pathname}${url.search}`, headers: { host: url.host } });
  expect(page.status).toBe(200);
  expect(page.body).toContain('<script type="module" src="app.js"></script>');
  const script = await raw(port, { path: '/app.js', headers: { host: url.host } });
  expect(script.status).toBe(200);
  expect(script.body.length).toBeGreaterThan(10_000);
  const info = await raw(port, {
    method: 'POST',
    path: '/api/call/app.info',
    headers: {
      host: url.host,
      authorization: `Bearer ${url.searchParams.get(WEB_PROTOCOL.tokenParam)}`,
      'content-type': 'application/json',
    },
    body: '{}',
  });
  expect(info.status).toBe(200);
}

describe('npm run web: the UI build', () => {
  it('two starts at once, the UI not built yet, both build it and both serve the app', {
    timeout: 240_000,
  }, async () => {
    const dir = tempDir();
    const rendererDir = join(dir, 'dist', 'renderer');
    const [a, b] = await Promise.all([
      startWeb(join(dir, 'data-a'), rendererDir),
      startWeb(join(dir, 'data-b'), rendererDir),
    ]);
    await servesTheApp(a.url);
    await servesTheApp(b.url);
    expect(existsSync(join(rendererDir, 'build-stamp.json'))).toBe(true);
    // No temporary folder is left beside the output.
    expect(readdirSync(join(dir, 'dist'))).toEqual(['renderer']);
  });

  it('a second start with nothing changed does not rebuild', { timeout: 240_000 }, async () => {
    const dir = tempDir();
    const rendererDir = join(dir, 'dist', 'renderer');
    const first = await startWeb(join(dir, 'data'), rendererDir);
    await stop(first);
    const stamp = readFileSync(join(rendererDir, 'build-stamp.json'), 'utf8');
    const before = statSync(join(rendererDir, 'app.js'));
    const second = await startWeb(join(dir, 'data'), rendererDir);
    expect(second.output()).toContain('The UI is current');
    const after = statSync(join(rendererDir, 'app.js'));
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(readFileSync(join(rendererDir, 'build-stamp.json'), 'utf8')).toBe(stamp);
    await servesTheApp(second.url);
  });
});
