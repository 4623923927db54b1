// Child processes killed with SIGKILL at a chosen moment (crash tests of the process tier).
import { spawn } from 'node:child_process';
import { once } from 'node:events';

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
