// Output through a pipe arrives whole: the CLI never exits before stdout has drained.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { realFixture } from '../../fixtures.ts';
import { cleanEnv, tempDataDir } from '../../cli/run-cli.ts';
import { shellWithCli, spawnCli as runCli, startCli } from './spawn-cli.ts';

/** The embedded engine's account has credits for 100 image-to-3D jobs. */
const JOBS = 100;

let engine: ChildProcess | undefined;

afterEach(async () => {
  if (!engine || engine.exitCode !== null) return;
  const exited = new Promise((resolve) => engine!.once('exit', resolve));
  engine.kill('SIGINT');
  await exited;
  engine = undefined;
});

/** Starts `asset-studio engine` for the data folder and resolves once it listens. */
async function startEngine(env: NodeJS.ProcessEnv): Promise<void> {
  engine = startCli(['engine'], env);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    engine!.stdout!.on('data', (d) => {
      out += String(d);
      if (out.includes('Local engine listening')) resolve();
    });
    engine!.once('exit', (code) => reject(new Error(`the engine ended (${code}) before it listened: ${out}`)));
  });
}

/**
 * Runs the CLI with its stdout into a pipe that nobody reads for a while (`| { sleep 1; cat; }`), as when
 * the next program of a pipeline is slow to start: the pipe fills up (64 KiB on Linux) and the CLI has to
 * wait for it to drain. Its exit code is reported on stderr.
 */
function throughSlowPipe(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return shellWithCli('{ "$0" "$@"; echo "exit $?" >&2; } | { sleep 1; cat; }', args, { env });
}

describe('asset-studio through a pipe', () => {
  it("piped --json larger than 64 KiB is whole while the data folder's engine runs in another process", {
    timeout: 180_000,
  }, async () => {
    const dataDir = tempDataDir();
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    await startEngine(env);
    const drop = join(dataDir, 'drop');
    mkdirSync(drop);
    for (let i = 0; i < JOBS; i++)
      symlinkSync(realFixture('images', 'fox.jpg'), join(drop, `fox-${String(i).padStart(3, '0')}.jpg`));
    const batch = await runCli(['batch', drop, '--json'], env);
    expect(batch.code).toBe(0);
    expect((JSON.parse(batch.stdout) as { submitted: number }).submitted).toBe(JOBS);

    const jobs = await throughSlowPipe(['jobs', '--json', '--limit', String(JOBS * 2)], env);
    expect(jobs.stderr).toBe('exit 0\n');
    expect(Buffer.byteLength(jobs.stdout)).toBeGreaterThan(64 * 1024);
    const parsed = JSON.parse(jobs.stdout) as { label: string }[];
    expect(parsed).toHaveLength(JOBS);
    expect(new Set(parsed.map((j) => j.label)).size).toBe(JOBS);
  });
});
