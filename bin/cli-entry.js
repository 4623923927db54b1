// Which code the `asset-studio` launcher (asset-studio.js, beside this file) runs:
//  - the command bundled into dist/cli/ by scripts/build-cli.ts, when it was built from the sources as they are
//    now: a few files instead of ~400 modules (zod's 48 locales, undici's whole index, our sources), which is
//    what keeps a short command's start-up and memory low (issue #23: `list` against a service ≤ 80 MiB);
//  - when the sources changed since (or it was never built) and esbuild is installed (a checkout), the bundle is
//    built first (a second or two, once after a change) and run;
//  - else the sources themselves, main/cli/main.ts, as `npm run cli` runs them (ASSET_STUDIO_CLI_FROM_SOURCE=1
//    asks for that): the same commands, only heavier to start.
// "As they are now": the build lists every file it read (dist/cli/inputs.json, from esbuild's metafile: our
// sources, the build's scripts and the lockfile for the packages) with its size and modification time, and every
// file it wrote into dist/cli/ (the entry, the chunks, the workers…) with its size, modification time and SHA-256;
// a start compares sizes and times with a stat of each, so a source changed since, or a bundle file missing,
// cut short or rewritten (which would break every command for good), builds the bundle again. Plain JavaScript that loads nothing else (this runs before every command: a
// TypeScript module here would load Node's type stripper, ~6 MiB, and a hash or module more counts in the memory
// of the shortest commands). Type-checked through its JSDoc (tsconfig.json: checkJs).
import { resolve } from 'node:path';
import { bundleIsCurrent, cliBundleEntry, cliSourceEntry } from './cli-bundle.js';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * @typedef {object} CliEntryOptions
 * @property {string} [root]
 * @property {NodeJS.ProcessEnv} [env]
 * @property {() => Promise<unknown>} [build] builds dist/cli/ (scripts/build-cli.ts; throws where esbuild is not installed)
 * @property {(text: string) => void} [note] where a note is written while the bundle is built (by default only to
 *   a terminal: never into a pipe or a log)
 */

/**
 * The file the launcher imports: the current bundle, a bundle built now, or the sources.
 * @param {CliEntryOptions} [options]
 * @returns {Promise<string>}
 */
export async function cliEntry(options = {}) {
  const root = options.root ?? ROOT;
  const env = options.env ?? process.env;
  if (env.ASSET_STUDIO_CLI_FROM_SOURCE === '1') return cliSourceEntry(root);
  if (bundleIsCurrent(root)) return cliBundleEntry(root);
  const build = options.build ?? (async () => (await import('../scripts/build-cli.ts')).buildCli({ root }));
  const note = options.note ?? ((text) => void (process.stderr.isTTY && process.stderr.write(text)));
  try {
    note('asset-studio: preparing the command after a change of its sources or of its bundle (once)…\n');
    await build();
    return cliBundleEntry(root);
  } catch {
    return cliSourceEntry(root); // no esbuild (an install without the build tools), or sources it cannot bundle
  }
}
