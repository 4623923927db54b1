// Runs the `asset-studio` command line in the test process (its entry point, runCli of main/cli/main.ts), as a
// user would type it: the same arguments, environment and standard input, the same printed text and exit code.
// Tests of what only a real process shows (exit on a signal, a closed pipe, the launcher, another user) spawn
// it instead: test/process/cli/spawn-cli.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'asset-studio-cli-'));
}

/** Environment without any service settings of the machine running the tests. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('ASSET_STUDIO_')) delete env[name];
  return { ...env, ...extra };
}

/**
 * Runs `asset-studio ...args` with this environment and standard input; resolves with its exit code and what it
 * printed. `interrupt` stands for Ctrl-C (the CLI stops its work and exits as it does on SIGINT).
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
  interrupt: AbortSignal = new AbortController().signal,
): Promise<CliResult> {
  // Imported when first used: a test file that needs only cleanEnv does not load the whole CLI.
  const { runCli: runCliEntry } = await import('../../main/cli/main.ts');
  let stdout = '';
  let stderr = '';
  const code = await runCliEntry(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env,
    stderrIsTTY: false,
    readStdin: async () => input ?? '',
    interrupt,
  });
  return { code, stdout, stderr };
}

/**
 * A text-to-image job of "a copper kettle" (the engine at speed 2000) made with `text-to-image --json` in a
 * new data folder, and waited on to its end with `wait` when `finished`: its id, and the environment of that folder.
 */
export async function kettleJob(
  options: { finished?: boolean } = {},
): Promise<{ env: NodeJS.ProcessEnv; jobId: string }> {
  const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
  const created = await runCli(['text-to-image', 'a', 'copper', 'kettle', '--json', '--engine-speed', '2000'], env);
  if (created.code !== 0) throw new Error(`text-to-image ended with ${created.code}: ${created.stderr}`);
  const jobId = (JSON.parse(created.stdout) as { jobId: string }).jobId;
  if (options.finished) {
    const waited = await runCli(['wait', jobId, '--engine-speed', '2000'], env);
    if (waited.code !== 0) throw new Error(`wait ended with ${waited.code}: ${waited.stderr}`);
  }
  return { env, jobId };
}
