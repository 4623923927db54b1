// Builds the desktop app into dist/: the Electron main process (dist/electron/main.cjs), the sandboxed
// preload (dist/electron/preload.cjs), both bundled to CommonJS by esbuild, and the renderer
// (dist/renderer/, by renderer/build.ts), the Blender add-on's zip (dist/blender/, by
// build-blender-addon.ts) and the `asset-studio` command (dist/cli/, by build-cli.ts).
// `node scripts/build.ts [--no-renderer]`.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { buildBlenderAddon } from './build-blender-addon.ts';
import { buildCli } from './build-cli.ts';
import { inputsStamp, readStamp, replaceWithBuild, stagingDir } from './build-output.ts';
import { copyDracoDecoder, DRACO_WASM, NODE_BUNDLE, WORKER_FILES, workerBundles } from './node-bundle.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const ELECTRON_OUT = join(ROOT, 'dist', 'electron');

/** What the Electron bundles are made of: main/ and shared/ (bundled), this script and its shim, the lockfile. */
const ELECTRON_INPUTS = [
  join(ROOT, 'main'),
  join(ROOT, 'shared'),
  join(ROOT, 'scripts', 'build.ts'),
  join(ROOT, 'scripts', 'node-bundle.ts'),
  join(ROOT, 'scripts', 'cjs-shim.ts'),
  join(ROOT, 'package-lock.json'),
];

/**
 * Bundles the Electron main process and preload into dist/electron/: into a temporary folder renamed into place
 * with a stamp of its inputs (build-output.ts), so two builds at once never write over each other. `ifStale`:
 * skipped when dist/electron/ was built from the same inputs (as `npm start` does).
 */
export async function buildElectron(options: { ifStale?: boolean } = {}): Promise<string[]> {
  const files = ['main.cjs', ...WORKER_FILES, 'preload.cjs', DRACO_WASM].map((f) => join(ELECTRON_OUT, f));
  const stamp = inputsStamp(ROOT, ELECTRON_INPUTS, { target: NODE_BUNDLE.target });
  if (options.ifStale && readStamp(ELECTRON_OUT) === stamp) return files;
  mkdirSync(dirname(ELECTRON_OUT), { recursive: true });
  const staging = stagingDir(ELECTRON_OUT);
  try {
    await Promise.all([
      build({
        ...NODE_BUNDLE,
        entryPoints: [join(ROOT, 'main', 'electron', 'main.ts')],
        outfile: join(staging, 'main.cjs'),
      }),
      ...workerBundles(staging).map((options) => build(options)),
      // The preload runs in the renderer's sandbox: only 'electron' may be required there, the rest is bundled.
      build({
        ...NODE_BUNDLE,
        minify: true,
        entryPoints: [join(ROOT, 'main', 'electron', 'preload.ts')],
        outfile: join(staging, 'preload.cjs'),
      }),
    ]);
    copyDracoDecoder(staging);
    replaceWithBuild(staging, ELECTRON_OUT, stamp);
  } finally {
    rmSync(staging, { recursive: true, force: true }); // gone already unless the build failed
  }
  return files;
}

/**
 * The renderer's build (renderer/build.ts, exporting buildRenderer()); a clear message when it is missing.
 * `ifStale`: skipped when the output was built from the same inputs (its stamp), as `npm start` does.
 */
export async function buildRendererIfPresent(
  options: { outDir?: string; ifStale?: boolean } = {},
): Promise<{ built: boolean; outDir?: string } | false> {
  let mod: { buildRenderer?: (o: typeof options) => Promise<{ built: boolean; outDir: string }> };
  try {
    mod = (await import(join(ROOT, 'renderer', 'build.ts'))) as typeof mod;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    console.warn('renderer/build.ts is not there yet: the UI was not built (the app shows a "not built" page).');
    return false;
  }
  if (typeof mod.buildRenderer !== 'function') {
    console.warn('renderer/build.ts exports no buildRenderer(): the UI was not built.');
    return false;
  }
  const { built, outDir } = await mod.buildRenderer(options);
  return { built, outDir };
}

if (import.meta.main) {
  const started = performance.now();
  const files = await buildElectron();
  files.push(await buildCli({ ifStale: true }));
  const renderer = process.argv.includes('--no-renderer') ? false : await buildRendererIfPresent();
  files.push(buildBlenderAddon());
  console.log(
    `built ${files.map((f) => f.slice(ROOT.length + 1)).join(', ')}${renderer ? ', dist/renderer/' : ''} in ${Math.round(performance.now() - started)} ms`,
  );
}
