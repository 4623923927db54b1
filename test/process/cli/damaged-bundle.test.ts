// A damaged or missing file of the CLI's bundle (dist/cli) is noticed at the next start and the bundle built again
// (issue #33: a chunk cut short broke every command for good, since the freshness check compared only the sources).
// On a copy of the checkout with the bundle the process tier built (test/process/global-setup.ts): its record of
// what it was built from and into is moved with it, then a chunk that main.js imports is cut in half.
import { cpSync, readFileSync, symlinkSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { bundleIsCurrent, cliOut, INPUTS_FILE } from '../../../bin/cli-bundle.js';
import { bundleIsWhole } from '../../../scripts/build-cli.ts';
import { tempDir } from '../../helpers.ts';
import { outputOf } from './spawn-cli.ts';
import { spawn } from 'node:child_process';
import { cleanEnv } from '../../cli/run-cli.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/** A copy of the checkout and its bundle whose record names the copies (sizes and times; hashes as built). */
function copyOfCheckout(): string {
  const root = tempDir('asset-studio-checkout-');
  for (const path of ['main', 'shared', 'scripts', 'bin', 'package.json', 'package-lock.json', 'dist/cli']) {
    cpSync(join(ROOT, path), join(root, path), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const path = join(cliOut(root), INPUTS_FILE);
  const record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, [number, number, string?]>;
  for (const [file, entry] of Object.entries(record)) {
    const stat = statSync(join(root, file), { throwIfNoEntry: false });
    if (stat) record[file] = [stat.size, stat.mtimeMs, ...(entry[2] === undefined ? [] : [entry[2]])] as typeof entry;
  }
  writeFileSync(path, JSON.stringify(record));
  return root;
}

it('a chunk of the bundle cut short is noticed at the next start: the bundle is built again and the command runs', async () => {
  const root = copyOfCheckout();
  expect(bundleIsCurrent(root)).toBe(true);
  expect(bundleIsWhole(root)).toBe(true);
  const chunk = /from"\.\/(chunk-[A-Z0-9]+\.js)"/.exec(readFileSync(join(cliOut(root), 'main.js'), 'utf8'))?.[1];
  expect(chunk).toBeDefined();
  truncateSync(join(cliOut(root), chunk!), Math.floor(statSync(join(cliOut(root), chunk!)).size / 2));
  expect(bundleIsCurrent(root)).toBe(false);

  const help = await outputOf(
    spawn(process.execPath, [join(root, 'bin', 'asset-studio.js'), 'help'], {
      env: cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDir() }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  expect(help.code, help.stderr).toBe(0);
  expect(help.stdout).toMatch(/asset-studio/);
  expect(bundleIsCurrent(root)).toBe(true); // built again, whole
  expect(bundleIsWhole(root)).toBe(true);
});
