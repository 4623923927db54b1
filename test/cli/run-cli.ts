// Runs the real `asset-studio` launcher as a child process, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const LAUNCHER = join(import.meta.dirname, '..', '..', 'bin', 'asset-studio.js');

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

export function startCli(args: string[], env: NodeJS.ProcessEnv, input?: string): ChildProcess {
  const child = spawn(process.execPath, [LAUNCHER, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(input ?? '');
  return child;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  const child = startCli(args, env, input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
