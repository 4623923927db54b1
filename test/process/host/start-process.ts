// `node scripts/start.ts --web …` as a user starts it, for the process tests of the web host: followed until it
// prints its address and its connection, or until it ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

const START = resolve(import.meta.dirname, '..', '..', '..', 'scripts', 'start.ts');

export interface Started {
  child: ChildProcess;
  url: URL;
  output: () => string;
}

/**
 * Starts `node scripts/start.ts --web <args>` with `env`; `cleanup` gets the step that stops it. The running
 * start with its address, or, when it ends first, its exit code and everything it printed.
 */
export async function startWebProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  cleanup: (() => Promise<void> | void)[],
): Promise<Started | { code: number | null; output: string }> {
  const child = spawn(process.execPath, [START, '--web', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const ended = once(child, 'exit').then(([code]) => ({ code: code as number | null }));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await ended;
    }
  });
  for (;;) {
    const match = /Asset Studio \(web host\): (\S+)/.exec(output);
    if (match && /Connected to: .*\n/.test(output)) return { child, url: new URL(match[1]!), output: () => output };
    const done = await Promise.race([ended, new Promise<undefined>((r) => setTimeout(() => r(undefined), 50))]);
    if (done) return { code: done.code, output };
  }
}
