// Issue #26, item 13: `asset-studio cache ls | head -1` printed an unhandled EPIPE stack trace. Output into a
// pipe whose reader has gone (head has read its line and exited) ends the command quietly: no stack trace,
// no error on stderr, whatever the command.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDataDir } from '../../cli/run-cli.ts';
import { LAUNCHER } from './spawn-cli.ts';

/**
 * Runs the launcher with its stdout into a pipe that is closed after the first line it reads (or at once,
 * `immediately`), as `| head -1` does; resolves with its exit code and what it wrote on stderr.
 */
function intoClosedPipe(
  args: string[],
  env: NodeJS.ProcessEnv,
  immediately: boolean,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; first: string }> {
  const child = spawn(process.execPath, [LAUNCHER, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let first = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  if (immediately) child.stdout.destroy();
  else
    child.stdout.on('data', (d) => {
      first += String(d).split('\n')[0];
      child.stdout.destroy(); // the reader has its line and goes away
    });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr, first })));
}

describe('asset-studio into a closed pipe', () => {
  it('ends quietly, without a stack trace, whatever the command', { timeout: 60_000 }, async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    for (const args of [['cache', 'ls'], ['help'], ['jobs', '--json'], ['cache', 'ls', '--json']]) {
      for (const immediately of [true, false]) {
        const run = await intoClosedPipe(args, env, immediately);
        const what = `${args.join(' ')} (${immediately ? 'closed at once' : 'after its first line'}): ${run.stderr}`;
        expect(run.stderr, what).not.toMatch(/EPIPE|Error|at .*\.ts:\d+|node:internal/);
        expect(run.stderr, what).toBe('');
        expect(run.signal, what).toBeNull();
        expect(run.code, what).toBe(0);
      }
    }
  });
});
