// Headless Blender for the tests of this folder: whether it is installed (each test file is skipped, saying
// so, where it is not: .ci/run installs it), and one run of a Python script in it.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const HAS_BLENDER = spawnSync('sh', ['-c', 'command -v blender'], { encoding: 'utf8' }).status === 0;

/** Says that the test file `file` (test/blender/…) is skipped when `blender` is not on PATH. */
export function warnIfNoBlender(file: string): void {
  if (!HAS_BLENDER)
    console.warn(
      `${file} is skipped: \`blender\` is not on PATH (apt-get install blender python3-numpy; .ci/run does).`,
    );
}

/**
 * Runs `blender -b --factory-startup --python <script> -- <args>` (the script a file of this folder), killed
 * after `capMs` (a cap for a hung Blender, not a speed bar): its exit code and everything it printed.
 */
export function runBlenderScript(
  script: string,
  args: string[],
  options: { capMs: number; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'blender',
      ['-b', '--factory-startup', '--python', join(import.meta.dirname, script), '--', ...args],
      {
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.capMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
