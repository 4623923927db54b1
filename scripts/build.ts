// Builds the desktop app into dist/: the Electron main process (dist/electron/main.cjs), the sandboxed
// preload (dist/electron/preload.cjs), both bundled to CommonJS by esbuild, and the renderer
// (dist/renderer/, by renderer/build.ts), and the Blender add-on's zip (dist/blender/, by
// build-blender-addon.ts). `node scripts/build.ts [--no-renderer]`.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { buildBlenderAddon } from './build-blender-addon.ts';
import { inputsStamp, readStamp, replaceWithBuild, stagingDir } from './build-output.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const ELECTRON_OUT = join(ROOT, 'dist', 'electron');

/** How the Node side is bundled (CommonJS for Electron's Node); bench/retopology bundles its child the same way. */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22', // Electron 45's Node
  sourcemap: 'linked',
  logLevel: 'warning',
  // Optional native speed-ups of ws, absent on purpose; electron is provided by the runtime.
  external: ['electron', 'bufferutil', 'utf-8-validate'],
  inject: [join(import.meta.dirname, 'cjs-shim.ts')],
  define: { 'import.meta.url': 'importMetaUrl', 'import.meta.dirname': '__dirname' },
};

/** What the Electron bundles are made of: main/ and shared/ (bundled), this script and its shim, the lockfile. */
const ELECTRON_INPUTS = [
  join(ROOT, 'main'),
  join(ROOT, 'shared'),
  join(ROOT, 'scripts', 'build.ts'),
  join(ROOT, 'scripts', 'cjs-shim.ts'),
  join(ROOT, 'package-lock.json'),
];

/**
 * Bundles the Electron main process and preload into dist/electron/: into a temporary folder renamed into place
 * with a stamp of its inputs (build-output.ts), so two builds at once never write over each other. `ifStale`:
 * skipped when dist/electron/ was built from the same inputs (as `npm start` does).
 */
export async function buildElectron(options: { ifStale?: boolean } = {}): Promise<string[]> {
  const files = ['main.cjs', 'engine-worker.cjs', 'thumbnail-worker.cjs', 'preload.cjs', 'draco_decoder_gltf.wasm'].map(
    (f) => join(ELECTRON_OUT, f),
  );
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
      // The embedded engine's worker threads (main/engine/work/pool.ts starts this file, beside main.cjs).
      build({
        ...NODE_BUNDLE,
        entryPoints: [join(ROOT, 'main', 'engine', 'work', 'worker.ts')],
        outfile: join(staging, 'engine-worker.cjs'),
      }),
      // The library's thumbnails are drawn on worker threads (main/mesh/thumbnail-thread.ts starts this file).
      build({
        ...NODE_BUNDLE,
        entryPoints: [join(ROOT, 'main', 'mesh', 'thumbnail-worker.ts')],
        outfile: join(staging, 'thumbnail-worker.cjs'),
      }),
      // The preload runs in the renderer's sandbox: only 'electron' may be required there, the rest is bundled.
      build({
        ...NODE_BUNDLE,
        minify: true,
        entryPoints: [join(ROOT, 'main', 'electron', 'preload.ts')],
        outfile: join(staging, 'preload.cjs'),
      }),
    ]);
    // The engine's Draco decoder (draco3dgltf, for compressed retopology inputs) loads its WebAssembly from the
    // folder of the script that runs it: in the bundle, dist/electron/.
    copyFileSync(
      join(dirname(createRequire(import.meta.url).resolve('draco3dgltf')), 'draco_decoder_gltf.wasm'),
      join(staging, 'draco_decoder_gltf.wasm'),
    );
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
  const renderer = process.argv.includes('--no-renderer') ? false : await buildRendererIfPresent();
  files.push(buildBlenderAddon());
  console.log(
    `built ${files.map((f) => f.slice(ROOT.length + 1)).join(', ')}${renderer ? ', dist/renderer/' : ''} in ${Math.round(performance.now() - started)} ms`,
  );
}
