// A command loads only the code it uses (issue #23): help and `key status` never load Babylon.js, the embedded
// engine or the export, and `list` against a service loads the API client but never the engine or Babylon.
// What is loaded is recorded by a load hook preloaded into the real launcher (record-loads.ts); no timings.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { LAUNCHER } from './spawn-cli.ts';
import { emptySessionList } from '../../service-answers.ts';

const HOOK = join(import.meta.dirname, 'record-loads.ts');

/** Runs the launcher with these arguments; resolves with its exit code, output and the module URLs it loaded. */
async function loadsOf(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; urls: string[] }> {
  const dir = tempDir();
  const record = join(dir, 'loaded.txt');
  const env = cleanEnv({ RECORD_LOADS_TO: record });
  delete env.NODE_OPTIONS;
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
  return { code, stdout, stderr, urls };
}

const BABYLON = /\/node_modules\/@babylonjs\//;
const ENGINE = /\/main\/engine\//;
const EXPORT = /\/main\/export\//;
const matching = (urls: string[], pattern: RegExp) => urls.filter((u) => pattern.test(u));

describe('what a command loads', () => {
  it('--help loads the command table and help, not Babylon, the engine, the export or the HTTP client', async () => {
    const run = await loadsOf(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('create-3d');
    expect(run.urls.some((u) => u.endsWith('/main/cli/help.ts'))).toBe(true); // the hook saw the CLI's modules
    expect(matching(run.urls, BABYLON)).toEqual([]);
    expect(matching(run.urls, ENGINE)).toEqual([]);
    expect(matching(run.urls, EXPORT)).toEqual([]);
    expect(matching(run.urls, /\/node_modules\/undici\//)).toEqual([]);
    expect(matching(run.urls, /\/main\/app\/services\.ts$/)).toEqual([]);
  });

  it("a command's own help (help export, export --help) does not load that command's code", async () => {
    for (const args of [
      ['help', 'export'],
      ['export', '--help'],
    ]) {
      const run = await loadsOf(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('--project');
      expect(matching(run.urls, BABYLON)).toEqual([]);
      expect(matching(run.urls, ENGINE)).toEqual([]);
      expect(matching(run.urls, EXPORT)).toEqual([]);
    }
  });

  it('key status loads neither Babylon, the engine nor the export', async () => {
    const run = await loadsOf(['key', 'status', '--data-dir', join(tempDir(), 'data')]);
    expect(run.code).toBe(0);
    expect(run.urls.some((u) => u.endsWith('/main/cli/admin-commands.ts'))).toBe(true);
    expect(matching(run.urls, BABYLON)).toEqual([]);
    expect(matching(run.urls, ENGINE)).toEqual([]);
    expect(matching(run.urls, EXPORT)).toEqual([]);
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
      const run = await loadsOf([
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
      expect(run.urls.some((u) => u.endsWith('/main/api/client.ts'))).toBe(true);
      expect(matching(run.urls, BABYLON)).toEqual([]);
      expect(matching(run.urls, EXPORT)).toEqual([]);
      // A read needs the client alone (main/app/read-client.ts): no engine, no tracker, no download cache, no
      // upload inspection (yauzl), no composition root.
      expect(matching(run.urls, ENGINE)).toEqual([]);
      expect(matching(run.urls, /\/main\/(jobs|cache)\/|\/main\/app\/services\.ts|\/node_modules\/yauzl\//)).toEqual(
        [],
      );
      // Its address is given, so the app's saved profile is not read: not even the database's code is loaded.
      expect(matching(run.urls, /\/main\/store\/database\.ts|^node:sqlite$/)).toEqual([]);
    } finally {
      service.close();
    }
  });
});
