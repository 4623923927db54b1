// Helpers shared by test folders: temporary folders removed after each test, the error a promise rejects
// with, and child processes killed with SIGKILL at a chosen moment (crash tests).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the current test. */
export function tempDir(prefix = 'asset-studio-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The error `promise` rejects with, which must be a `type` (the test fails if it resolves or rejects with another). */
export async function rejection<E>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

/**
 * Runs `node script ...args`, waits until it prints `marker` on stdout, then kills it with SIGKILL.
 * Resolves with what it printed and how it ended; rejects if it ends before printing the marker.
 */
export async function killAtMarker(
  script: string,
  args: string[],
  marker: string,
): Promise<{ pid: number; stdout: string; stderr: string; code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let stdout = '';
  for await (const chunk of child.stdout) {
    stdout += String(chunk);
    if (stdout.includes(marker)) break;
  }
  if (!stdout.includes(marker)) throw new Error(`${script} ended before printing "${marker}": ${stderr}`);
  child.kill('SIGKILL');
  const [code, signal] = await exited;
  return { pid: child.pid!, stdout, stderr, code, signal };
}
