// What the launcher's bundle is (dist/cli/: its entry, the sources' entry, the record of what it was built from
// and what it wrote) and whether it is current: read by bin/cli-entry.js at every start and by scripts/build-cli.ts,
// which writes the record (a module of its own so that the build and the launcher do not import each other).
// Plain JavaScript that loads nothing else, type-checked through its JSDoc (see cli-entry.js).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where a checkout's command is bundled. @param {string} root */
export const cliOut = (root) => join(root, 'dist', 'cli');
/** The bundle's entry file. @param {string} root */
export const cliBundleEntry = (root) => join(cliOut(root), 'main.js');
/** The sources' entry file. @param {string} root */
export const cliSourceEntry = (root) => join(root, 'main', 'cli', 'main.ts');
/**
 * What the build recorded: each input's path (relative to the root, with /) → [size, mtimeMs], and each output's
 * (`dist/cli/…`) → [size, mtimeMs, sha256].
 */
export const INPUTS_FILE = 'inputs.json';
/** The bundle's entry as inputs.json names it: a record without it is from before outputs were recorded. */
export const RECORDED_ENTRY = 'dist/cli/main.js';

/**
 * Whether dist/cli/ was built from the files as they are now and is whole: every input and every output file as
 * the build left it (false when it was never built, or its record names no output). Kept to plain
 * loops and string paths: with path.join() and Object.entries() here, V8's optimising compilers took this loop of
 * ~270 stats as hot, and their memory (~6 MiB) showed in the peak of every short command.
 * @param {string} root
 */
export function bundleIsCurrent(root) {
  /** @type {unknown} */
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(join(cliOut(root), INPUTS_FILE), 'utf8'));
  } catch {
    return false;
  }
  if (typeof inputs !== 'object' || inputs === null) return false;
  const recorded = /** @type {Record<string, unknown>} */ (inputs);
  let count = 0;
  for (const path in recorded) {
    const was = recorded[path];
    const now = statSync(`${root}/${path}`, { throwIfNoEntry: false });
    if (!now || !Array.isArray(was) || now.size !== was[0] || now.mtimeMs !== was[1]) return false;
    count++;
  }
  return count > 0 && RECORDED_ENTRY in recorded;
}
