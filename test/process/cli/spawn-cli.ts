// Runs the real `asset-studio` launcher as a child process, as a user would: for what only a process shows
// (exit codes on signals, pipes, the launcher itself, another user). Everything else runs the CLI in the test
// process (test/cli/run-cli.ts), which prints the same and ends with the same code.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CliResult } from '../../cli/run-cli.ts';

export const LAUNCHER = join(import.meta.dirname, '..', '..', '..', 'bin', 'asset-studio.js');

export function startCli(args: string[], env: NodeJS.ProcessEnv, input?: string): ChildProcess {
  const child = spawn(process.execPath, [LAUNCHER, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(input ?? '');
  return child;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  return outputOf(startCli(args, env, input));
}

/**
 * Runs `sh -c SCRIPT` where "$0" is node and "$1" the launcher (so `"$0" "$1" ...` runs the CLI), followed by
 * `args`: for what only a shell gives, raw bytes in arguments or a pipe into another program.
 */
export function shellWithCli(
  script: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string },
): Promise<CliResult> {
  return outputOf(
    spawn('sh', ['-c', script, process.execPath, LAUNCHER, ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}

/** What a child process printed, and its exit code, once it has ended. */
export function outputOf(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** `asset-studio engine --json <args>` started with `env`: the child, once it has printed the engine's address. */
export async function startCliEngine(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string }> {
  const child = startCli(['engine', '--json', ...args], env);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the engine command ended (${code}): ${stderr}`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}
