// A full disk is an error for the one action that wrote, said in words (which folder is full, what to free):
// the web host (a process of its own, so that a crash shows as its exit) keeps answering, the job's outputs
// are marked failed with the words, and the CLI with --json prints a JSON error on stdout, never a stack trace.
// The disk is a real one: a 1 MiB tmpfs mounted for the test (Linux, as root), filled up by a file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, databasePath } from '../../../main/store/database.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { raw, tempDir } from '../../host/helpers.ts';
import { LAUNCHER, outputOf, spawnCli } from '../cli/spawn-cli.ts';

const IMAGE = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'real', 'images', 'chair.png');
const work = tempDir('disk-full');
const full = join(work.path, 'full'); // a tmpfs holding the cache folder
const fullData = join(work.path, 'full-data'); // a tmpfs holding a whole data folder
/** Mounts a tmpfs of `size` at `dir`; false when this system does not let the test mount one. */
function mountTmpfs(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status === 0;
}
const canMount =
  process.platform === 'linux' && process.getuid?.() === 0 && mountTmpfs(full, '1m') && mountTmpfs(fullData, '4m');
const children: ChildProcess[] = [];

/** Fills the tmpfs with one file until the system says ENOSPC. */
function fillDisk(disk = full): void {
  const fd = openSync(join(disk, 'filler'), 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

/** Starts a process that prints one JSON line when it is ready; resolves with that line. */
async function startProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; first: unknown }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} ended (${code}) before it was ready: ${stderr}`)));
  });
  return { child, first: JSON.parse(line) };
}

/** No line of Node's stack traces ("    at f (file:…)"). */
function expectNoStack(text: string): void {
  expect(text).not.toMatch(/^\s+at .+\(.*:\d+:\d+\)$/m);
}

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (canMount) for (const disk of [full, fullData]) spawnSync('umount', [disk]);
  work.remove();
});

describe.skipIf(!canMount)('a full disk (a 1 MiB tmpfs; skipped: needs Linux and root to mount it)', () => {
  let env: NodeJS.ProcessEnv;
  let host: ChildProcess;
  let port: number;
  let headers: Record<string, string>;
  const dataDir = join(work.path, 'data');
  const cacheDir = join(full, 'cache');

  beforeAll(async () => {
    // The service: an embedded engine of its own, on a disk with room.
    const engine = await startProcess(
      [LAUNCHER, 'engine', '--json', '--data-dir', join(work.path, 'engine'), '--engine-speed', '200'],
      cleanEnv(),
    );
    const { url, keyFile } = engine.first as { url: string; keyFile: string };
    env = cleanEnv({ ASSET_STUDIO_BASE_URL: url, ASSET_STUDIO_API_KEY: readFileSync(keyFile, 'utf8').trim() });
    // The data folder has room; its download cache is on the tmpfs.
    const store = openDatabase(databasePath(dataDir));
    store.settings.set('cache', { dir: cacheDir });
    store.close();
    const started = await startProcess(
      [new URL('../../host/web-host-process.ts', import.meta.url).pathname, dataDir],
      env,
    );
    host = started.child;
    ({ port } = started.first as { port: number; token: string });
    headers = {
      host: `127.0.0.1:${port}`,
      authorization: `Bearer ${(started.first as { token: string }).token}`,
      'content-type': 'application/json',
    };
    fillDisk(); // after the host claimed the cache folder
  }, 60_000);

  const call = async (command: string, input: unknown) => {
    const res = await raw(port, { method: 'POST', path: `/api/call/${command}`, headers, body: JSON.stringify(input) });
    return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
  };

  it('a job followed by the web host: its outputs fail with the words, the host keeps answering', async () => {
    const created = await spawnCli(['create-3d', IMAGE, '--json', '--data-dir', dataDir], env);
    expect(created.code, created.stderr).toBe(0);
    const answer = JSON.parse(created.stdout) as { jobId: string; data: { session_code: string } };
    const job = { id: answer.jobId, remoteId: answer.data.session_code };
    // The host follows the job the CLI added; when it succeeds, its outputs are downloaded into the full cache.
    let outputs: { kind: string; state: string; error: string | null }[] = [];
    for (const end = Date.now() + 60_000; ; ) {
      const { body } = await call('cache.outputs', { sessionId: job.remoteId });
      outputs = body.outputs as typeof outputs;
      if (outputs.length > 0 && outputs.every((o) => o.state === 'failed')) break;
      expect(Date.now() < end, `the outputs marked failed: ${JSON.stringify(body)}`).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const output of outputs)
      expect(output.error).toMatch(
        new RegExp(`^The disk holding ${cacheDir} is full: .* Free some space on that disk`),
      );
    expect({ exit: host.exitCode, signal: host.signalCode }).toEqual({ exit: null, signal: null });
    expect((await call('app.info', {})).status).toBe(200);
    const library = await call('jobs.list', {});
    expect(library.status).toBe(200);
    expect((library.body.jobs as { id: string; state: string }[]).find((j) => j.id === job.id)?.state).toBe(
      'succeeded',
    );
    // Asking again is one action that fails, in words (507 Insufficient Storage).
    const again = await call('cache.fetch', { jobId: job.id });
    expect(JSON.stringify(again.body)).toMatch(/The disk holding .* is full/);

    // The CLI's pull on the same full cache: JSON on stdout naming the folder, no stack trace.
    const pull = await spawnCli(['pull', job.id, '--json', '--data-dir', dataDir], env);
    const report = JSON.parse(pull.stdout) as { failed: { error: string }[] };
    expect(report.failed.length).toBeGreaterThan(0);
    for (const failed of report.failed)
      expect(failed.error).toMatch(new RegExp(`The disk holding ${cacheDir} is full`));
    expectNoStack(pull.stderr);
  }, 120_000);

  it('a data folder on the full disk: wait --json and list --json print a disk-full error, no stack trace', async () => {
    const onFull = join(full, 'data');
    for (const args of [['wait', 'job_x'], ['jobs']]) {
      const result = await outputOf(
        spawn(process.execPath, [LAUNCHER, ...args, '--json', '--data-dir', onFull], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe('disk-full');
      expect(error.message).toMatch(
        new RegExp(`^The disk holding ${onFull} is full: the local database .* could not be written`),
      );
      expect(result.stderr).toMatch(/^error: The disk holding/);
      expectNoStack(result.stderr);
    }
    rmSync(onFull, { recursive: true, force: true });
  }, 60_000);

  it('the data folder fills up while the web host follows a job: it keeps answering, and goes on once there is room', async () => {
    const data = join(fullData, 'data');
    const started = await startProcess(
      [new URL('../../host/web-host-process.ts', import.meta.url).pathname, data],
      env,
    );
    const own = started.first as { port: number; token: string };
    const ownCall = async (command: string, input: unknown) => {
      const res = await raw(own.port, {
        method: 'POST',
        path: `/api/call/${command}`,
        headers: { ...headers, host: `127.0.0.1:${own.port}`, authorization: `Bearer ${own.token}` },
        body: JSON.stringify(input),
      });
      return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
    };
    // A text-to-image: its first read is due about 7 s after the create (90% of its shortest duration).
    const created = await spawnCli(['text-to-image', 'a', 'red', 'chair', '--json', '--data-dir', data], env);
    expect(created.code, created.stderr).toBe(0);
    const jobId = (JSON.parse(created.stdout) as { jobId: string }).jobId;
    fillDisk(fullData); // while the host follows the job: what its reads find cannot be stored
    const stateOf = async () => {
      const { status, body } = await ownCall('jobs.get', { id: jobId });
      expect(status).toBe(200);
      return (body as { state: string }).state;
    };
    // Past the job's first read (the engine, on its own disk, has finished it by then) and a few retries.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    expect({ exit: started.child.exitCode, signal: started.child.signalCode }).toEqual({ exit: null, signal: null });
    expect((await ownCall('app.info', {})).status).toBe(200);
    expect((await ownCall('jobs.list', {})).status).toBe(200);
    // Room again: the job is read, stored and finished, with no restart.
    rmSync(join(fullData, 'filler'));
    for (const end = Date.now() + 60_000; (await stateOf()) !== 'succeeded'; ) {
      expect(Date.now() < end, 'the job finished once there was room').toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);
});
