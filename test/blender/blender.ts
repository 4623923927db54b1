// Headless Blender for the tests of this folder: whether it is installed (each test file is skipped, saying
// so, where it is not: .ci/run installs it), one run of a Python script in it, and one run of a script with
// the add-on built from this checkout.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBlenderAddon } from '../../scripts/build-blender-addon.ts';

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

/**
 * The environment of a Blender whose user scripts and preferences (where an add-on is installed) and temp
 * files are in `folder`, never the user's own; `env` is added to it.
 */
export function privateBlenderEnv(folder: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    BLENDER_USER_SCRIPTS: join(folder, 'blender-scripts'),
    BLENDER_USER_CONFIG: join(folder, 'blender-config'),
    TMPDIR: folder,
    ...env,
  };
}

/**
 * Builds the add-on's zip into `folder`/dist and runs `script` with `<facts.json> <zip> ...args` in a Blender of
 * `privateBlenderEnv(folder, env)`: the facts the script wrote, and everything Blender printed. Throws with the
 * end of Blender's output when the script wrote no facts or wrote an `error`.
 */
export async function runAddonScript(
  script: string,
  folder: string,
  args: string[],
  options: { capMs: number; env?: NodeJS.ProcessEnv },
): Promise<{ facts: any; output: string }> {
  const zip = buildBlenderAddon(join(folder, 'dist'));
  const factsPath = join(folder, 'facts.json');
  const run = await runBlenderScript(script, [factsPath, zip, ...args], {
    capMs: options.capMs,
    env: privateBlenderEnv(folder, options.env),
  });
  let facts: any;
  try {
    facts = JSON.parse(readFileSync(factsPath, 'utf8'));
  } catch {
    throw new Error(`Blender wrote no facts (exit ${run.code}):\n${run.output.slice(-4000)}`);
  }
  if (facts.error) throw new Error(`in Blender: ${facts.error}\n${run.output.slice(-4000)}`);
  return { facts, output: run.output };
}
