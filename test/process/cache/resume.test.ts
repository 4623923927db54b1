// A download killed with SIGKILL in the middle resumes in a new process with Range + If-Range, from the
// bytes synced before the crash, and the blob verifies.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../../main/store/database.ts';
import { startTestEngine, type TestEngine } from '../../engine/helpers.ts';
import { hostFile, recordingProxy, sha256File, type RecordingProxy } from '../../cache/helpers.ts';

const CHILD = fileURLToPath(new URL('../../cache/fixtures/fetch-output.ts', import.meta.url));
const MiB = 1 << 20;

let engine: TestEngine | undefined;
let proxy: RecordingProxy | undefined;
let dir: string | undefined;
afterEach(async () => {
  await proxy?.close();
  await engine?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the child to its end (or, with `hang`, until its first checkpoint, then kills it); returns its output line. */
async function runChild(args: string[], hang: boolean): Promise<{ line: string; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [CHILD, ...args, ...(hang ? ['--hang-at-checkpoint'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  if (hang) child.kill('SIGKILL');
  const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  if (!line) throw new Error(`the child printed nothing: ${stderr}`);
  return { line, signal };
}

it('resumes a download killed with SIGKILL mid-way, in a new process, and the blob verifies', async () => {
  engine = await startTestEngine();
  dir = mkdtempSync(join(tmpdir(), 'asset-studio-resume-'));
  const file = await hostFile(engine, 'big/output.glb', 200 * MiB);
  proxy = await recordingProxy(engine.url);
  const db = join(dir, 'asset-studio.db');
  const args = [
    '--db',
    db,
    '--cache-dir',
    join(dir, 'cache'),
    '--session',
    'SESSION_big',
    '--kind',
    'glb',
    '--url',
    proxy.via(file.url()),
    '--checkpoint-bytes',
    String(8 * MiB),
  ];

  const crashed = await runChild(args, true);
  expect(crashed.signal).toBe('SIGKILL');
  const synced = Number(/^checkpoint (\d+)$/.exec(crashed.line)?.[1]);
  expect(synced).toBeGreaterThanOrEqual(8 * MiB);
  expect(synced).toBeLessThan(200 * MiB);
  const store = openDatabase(db);
  expect(store.cache.get({ sessionId: 'SESSION_big', kind: 'glb' })).toMatchObject({
    state: 'partial',
    size: 200 * MiB,
  });
  store.close();

  const resumed = await runChild(args, false);
  const { path } = JSON.parse(resumed.line) as { path: string };
  const etag = (await fetch(file.url(), { method: 'HEAD' })).headers.get('etag');
  expect(proxy.requests.map((r) => [r.range, r.ifRange])).toEqual([
    [undefined, undefined],
    [`bytes=${synced}-`, etag],
  ]);
  expect(basename(path)).toBe(file.sha256);
  expect(sha256File(path)).toBe(file.sha256);
  const after = openDatabase(db);
  expect(after.cache.get({ sessionId: 'SESSION_big', kind: 'glb' })).toMatchObject({
    state: 'complete',
    sha256: file.sha256,
    size: 200 * MiB,
  });
  after.close();
});
