// Bundles the `asset-studio` command into dist/cli/ (run by bin/asset-studio.js through bin/cli-entry.js): one ES module
// entry, main.js, and the chunks of the commands' code it loads when a command runs (code splitting keeps each
// command's dynamic imports lazy: `--help` never loads the chunk that holds Babylon.js or the engine), the worker
// threads' scripts and the Draco decoder beside them (node-bundle.ts), and chunks.json: which of our modules and
// which packages each chunk holds (test/process/cli/loaded-modules.test.ts checks what a command loads with it), and
// inputs.json: what it was built from and what it wrote (bin/cli-entry.js builds again when either changed).
// Written into a temporary folder renamed into place (build-output.ts), so two builds at once never collide.
// `node scripts/build-cli.ts`; the launcher builds it itself when the sources changed.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { replaceWithBuild, stagingDir } from './build-output.ts';
import { bundleIsCurrent, cliBundleEntry, cliOut, cliSourceEntry, INPUTS_FILE } from '../bin/cli-bundle.js';
import { copyDracoDecoder, NODE_BUNDLE, workerBundles } from './node-bundle.ts';

/**
 * What dist/cli/inputs.json holds: each input's path → [size, mtimeMs], and each output's (`dist/cli/…`) →
 * [size, mtimeMs, sha256] (bin/cli-entry.js compares the sizes and times; bundleIsWhole the hashes too).
 */
type CliInputs = Record<string, [number, number] | [number, number, string]>;

const ROOT = resolve(import.meta.dirname, '..');
export const CHUNKS_FILE = 'chunks.json';

/** A bundled module as chunks.json names it: an npm package by its name, else its path (main/cli/main.ts). */
function moduleIdOf(input: string): string {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input;
}

/** The modules of each output chunk, from esbuild's metafile (chunks by file name). */
function modulesByChunk(metafile: Metafile): Record<string, string[]> {
  const chunks: Record<string, string[]> = {};
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (!output.endsWith('.js')) continue;
    chunks[output.slice(output.lastIndexOf('/') + 1)] = [...new Set(Object.keys(inputs).map(moduleIdOf))].sort();
  }
  return chunks;
}

/**
 * Throws when esbuild renamed an error class in a chunk (it does so when two modules of one chunk declare classes of
 * the same name: `class ParseError2`): the CLI names an unplanned error's code after its class, so the bundle would
 * print other codes than the sources.
 */
export function refuseRenamedErrors(outDir: string): void {
  for (const file of readdirSync(outDir).filter((f) => f.endsWith('.js'))) {
    const renamed = /\bclass ([A-Za-z_$][\w$]*Error)(\d+)\b/.exec(readFileSync(join(outDir, file), 'utf8'));
    if (renamed) {
      throw new Error(
        `The CLI's bundle renamed the class ${renamed[1]} to ${renamed[1]}${renamed[2]} (${file}): two classes of that name are bundled together; give one of them another name.`,
      );
    }
  }
}

/** The files a build depends on besides the modules esbuild reads: its scripts, and the lockfile for the packages. */
const BUILD_INPUTS = [
  'package-lock.json',
  'bin/cli-entry.js',
  'bin/cli-bundle.js',
  'scripts/build-cli.ts',
  'scripts/build-output.ts',
  'scripts/node-bundle.ts',
  'scripts/cjs-shim.ts',
];

/** Size and modification time of every file under main/ and shared/ and of BUILD_INPUTS, before a build. */
function statsBefore(root: string): CliInputs {
  const stats: CliInputs = {};
  const files = ['main', 'shared'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/')),
  );
  for (const path of [...files, ...BUILD_INPUTS]) {
    const stat = statSync(join(root, path), { throwIfNoEntry: false });
    if (stat?.isFile()) stats[path] = [stat.size, stat.mtimeMs];
  }
  return stats;
}

/**
 * Every file the build wrote into `staging` (dist/cli/ once renamed: a rename keeps sizes and times), by its path
 * under `root`, with its size, modification time and SHA-256.
 */
function outputRecords(staging: string, outPath: string): CliInputs {
  const records: CliInputs = {};
  for (const entry of readdirSync(staging, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const stat = statSync(file);
    const path = [outPath, ...relative(staging, file).split(sep)].join('/');
    records[path] = [stat.size, stat.mtimeMs, createHash('sha256').update(readFileSync(file)).digest('hex')];
  }
  return records;
}

/**
 * Whether every output file inputs.json records is there with its SHA-256 (a thorough check, for the build's
 * `ifStale`: a start compares only sizes and times, bin/cli-entry.js).
 */
export function bundleIsWhole(root: string): boolean {
  let recorded: CliInputs;
  try {
    recorded = JSON.parse(readFileSync(join(cliOut(root), INPUTS_FILE), 'utf8')) as CliInputs;
  } catch {
    return false;
  }
  return Object.entries(recorded).every(([path, record]) => {
    if (record.length < 3) return true;
    try {
      return (
        createHash('sha256')
          .update(readFileSync(join(root, path)))
          .digest('hex') === record[2]
      );
    } catch {
      return false;
    }
  });
}

/**
 * Builds dist/cli/ from the sources under `root`. The inputs it records are stat'ed before the build, so a source
 * changed while it ran makes the next start build again. `ifStale`: skipped when dist/cli/ is current.
 */
export async function buildCli(options: { root?: string; ifStale?: boolean } = {}): Promise<string> {
  const root = options.root ?? ROOT;
  const out = cliOut(root);
  if (options.ifStale && bundleIsCurrent(root) && bundleIsWhole(root)) return cliBundleEntry(root);
  const before = statsBefore(root);
  mkdirSync(dirname(out), { recursive: true });
  const staging = stagingDir(out);
  try {
    const [cli, ...workers] = await Promise.all([
      build({
        entryPoints: { main: cliSourceEntry(root) },
        absWorkingDir: root, // the metafile's paths relative to the checkout
        bundle: true,
        format: 'esm',
        splitting: true,
        platform: 'node',
        target: 'node24',
        outdir: staging,
        // Less source text to keep in memory. Names are not minified (an unplanned error's code is its class's name,
        // main/cli/error-report.ts) and not kept by esbuild's keepNames either: its __name() wrapper around every
        // function and class cost `list` 6 MiB. A class it renames (two of one name in a chunk) is refused below.
        minifyWhitespace: true,
        minifySyntax: true,
        metafile: true,
        logLevel: 'silent',
        external: NODE_BUNDLE.external,
        // The CommonJS packages bundled in (undici, ws, yauzl…) require Node's built-in modules.
        banner: {
          js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        },
      }),
      ...workerBundles(staging).map((o) => build({ ...o, absWorkingDir: root, metafile: true, logLevel: 'silent' })),
    ]);
    refuseRenamedErrors(staging);
    copyDracoDecoder(staging);
    writeFileSync(join(staging, CHUNKS_FILE), `${JSON.stringify(modulesByChunk(cli.metafile), null, 1)}\n`);
    // Our modules the bundles read (the packages' are covered by the lockfile), as they were before the build.
    const read = new Set([cli, ...workers].flatMap((result) => Object.keys(result.metafile!.inputs)));
    const inputs: CliInputs = Object.fromEntries(
      Object.entries(before).filter(([path]) => read.has(path) || BUILD_INPUTS.includes(path)),
    );
    // A module of ours outside main/ and shared/ (none today) is recorded as it is now rather than not at all.
    for (const path of read) {
      if (inputs[path] || path.includes('node_modules/')) continue;
      const stat = statSync(join(root, path), { throwIfNoEntry: false });
      if (stat?.isFile()) inputs[path] = [stat.size, stat.mtimeMs];
    }
    // The stamp says which inputs it was built from (two builds of the same sources keep one: build-output.ts).
    const stamp = createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
    const outputs = outputRecords(staging, relative(root, out).split(sep).join('/'));
    writeFileSync(join(staging, INPUTS_FILE), `${JSON.stringify({ ...inputs, ...outputs })}\n`);
    replaceWithBuild(staging, out, stamp);
  } finally {
    rmSync(staging, { recursive: true, force: true }); // gone already unless the build failed
  }
  return cliBundleEntry(root);
}

if (import.meta.main) {
  const started = performance.now();
  const entry = await buildCli();
  console.log(`built ${entry.slice(ROOT.length + 1)} in ${Math.round(performance.now() - started)} ms`);
}
