// A command loads only the code it uses (issue #23): help and `key status` never load Babylon.js, the embedded
// engine or the export, and `list` against a service loads the API client but never the engine or Babylon.
// What is loaded is recorded by a load hook preloaded into the real launcher (record-loads.ts); no timings.
// Both ways the launcher runs the command are checked: the bundle in dist/cli/ (what it runs when current: a
// loaded chunk counts as every module it holds, from dist/cli/chunks.json) and the sources
// (ASSET_STUDIO_CLI_FROM_SOURCE=1, as `npm run cli` runs them).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleIsCurrent, cliOut, INPUTS_FILE } from '../../../bin/cli-bundle.js';
import { CHUNKS_FILE } from '../../../scripts/build-cli.ts';
import { tempDir } from '../../helpers.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { LAUNCHER } from './spawn-cli.ts';
import { emptySessionList } from '../../service-answers.ts';

const HOOK = join(import.meta.dirname, 'record-loads.ts');
const ROOT = resolve(import.meta.dirname, '..', '..', '..');
type Mode = 'bundle' | 'sources';

/**
 * What a loaded module URL stands for: a package by its name (`undici`, `@babylonjs/core`), one of our modules by
 * its path (`main/cli/help.ts`), a built-in by its `node:` name; a chunk of the bundle for every module it holds.
 */
function modulesOf(urls: string[], mode: Mode): string[] {
  const chunks =
    mode === 'bundle'
      ? (JSON.parse(readFileSync(join(cliOut(ROOT), CHUNKS_FILE), 'utf8')) as Record<string, string[]>)
      : {};
  return urls.flatMap((url) => {
    if (!url.startsWith('file:')) return [url];
    const path = relative(ROOT, fileURLToPath(url)).split('\\').join('/');
    if (path.startsWith('dist/cli/')) return chunks[basename(path)] ?? [path];
    return [/(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path];
  });
}

/**
 * Runs the launcher with these arguments, from the bundle or the sources; resolves with its exit code, output,
 * the module URLs it loaded and the modules they stand for.
 */
async function loadsOf(
  mode: Mode,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; urls: string[]; modules: string[] }> {
  const dir = tempDir();
  const record = join(dir, 'loaded.txt');
  const env = cleanEnv({ RECORD_LOADS_TO: record });
  delete env.NODE_OPTIONS;
  if (mode === 'sources') env.ASSET_STUDIO_CLI_FROM_SOURCE = '1';
  else delete env.ASSET_STUDIO_CLI_FROM_SOURCE;
  const child = spawn(process.execPath, ['--import', HOOK, LAUNCHER, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const [code] = (await once(child, 'close')) as [number | null];
  const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  const ran = urls.filter((u) => /\/dist\/cli\/|\/main\/cli\/main\.ts$/.test(u));
  // The launcher ran the code it was asked to: the bundle's entry, or the sources' (never both).
  expect(ran.some((u) => u.endsWith(mode === 'bundle' ? '/dist/cli/main.js' : '/main/cli/main.ts'))).toBe(true);
  expect(ran.filter((u) => (mode === 'bundle' ? u.endsWith('.ts') : u.includes('/dist/cli/')))).toEqual([]);
  return { code, stdout, stderr, urls, modules: modulesOf(urls, mode) };
}

const BABYLON = /^@babylonjs\//;
const ENGINE = /^main\/engine\//;
const EXPORT = /^main\/export\//;
/** Fails, naming them, when any module matches one of the patterns. */
const expectNoneOf = (modules: string[], ...patterns: RegExp[]) =>
  expect(modules.filter((m) => patterns.some((pattern) => pattern.test(m)))).toEqual([]);

describe.each<Mode>(['bundle', 'sources'])('what a command loads, from the %s', (mode) => {
  beforeAll(() => {
    // The process tier's global setup (test/process/global-setup.ts) built it: the launcher runs it as it is.
    if (mode === 'bundle') expect(bundleIsCurrent(ROOT)).toBe(true);
  });

  it.runIf(mode === 'bundle')('the bundle records the sources it was built from, the workers and lockfile too', () => {
    const inputs = Object.keys(JSON.parse(readFileSync(join(cliOut(ROOT), INPUTS_FILE), 'utf8')) as object);
    for (const path of ['main/cli/main.ts', 'main/api/client.ts', 'main/engine/work/worker.ts', 'package-lock.json']) {
      expect(inputs).toContain(path);
    }
    expect(inputs.filter((path) => path.includes('node_modules'))).toEqual([]);
  });

  it('--help loads the command table and help, not Babylon, the engine, the export or the HTTP client', async () => {
    const run = await loadsOf(mode, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('create-3d');
    expect(run.modules).toContain('main/cli/help.ts'); // the hook saw the CLI's modules
    expectNoneOf(run.modules, BABYLON, ENGINE, EXPORT);
    expect(run.modules).not.toContain('undici');
    expect(run.modules).not.toContain('main/app/services.ts');
  });

  it("a command's own help (help export, export --help) does not load that command's code", async () => {
    for (const args of [
      ['help', 'export'],
      ['export', '--help'],
    ]) {
      const run = await loadsOf(mode, args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('--project');
      expectNoneOf(run.modules, BABYLON, ENGINE, EXPORT);
    }
  });

  it('key status loads neither Babylon, the engine nor the export', async () => {
    const run = await loadsOf(mode, ['key', 'status', '--data-dir', join(tempDir(), 'data')]);
    expect(run.code).toBe(0);
    expect(run.modules).toContain('main/cli/admin-commands.ts');
    expectNoneOf(run.modules, BABYLON, ENGINE, EXPORT);
  });

  it('list against a service loads the client, but not the engine, the tracker, the cache nor Babylon', async () => {
    const service = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(emptySessionList());
    });
    service.listen(0, '127.0.0.1');
    await once(service, 'listening');
    try {
      const dir = tempDir();
      const keyFile = join(dir, 'key');
      writeFileSync(keyFile, 'test-key\n', { mode: 0o600 });
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
      const run = await loadsOf(mode, [
        'list',
        '--base-url',
        url,
        '--api-key-file',
        keyFile,
        '--data-dir',
        join(dir, 'data'),
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.modules).toContain('main/api/client.ts');
      expectNoneOf(run.modules, BABYLON, EXPORT);
      // A read needs the client alone (main/app/read-client.ts): no engine, no tracker, no download cache, no
      // upload inspection (yauzl), no composition root.
      expectNoneOf(run.modules, ENGINE, /^main\/(jobs|cache)\//, /^main\/app\/services\.ts$/, /^yauzl$/);
      // Its address is given, so the app's saved profile is not read: not even the database's code is loaded.
      expectNoneOf(run.modules, /^main\/store\/database\.ts$/, /^node:sqlite$/);
    } finally {
      service.close();
    }
  });
});
