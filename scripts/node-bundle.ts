// How the Node side is bundled by esbuild, for the Electron shell (scripts/build.ts) and the `asset-studio`
// command (scripts/build-cli.ts): the options of a CommonJS bundle, and the files every bundle of the main
// process needs beside it (the worker threads' scripts and the Draco decoder). esbuild's types only: its code is
// loaded by the scripts that build.
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/** How the Node side is bundled (CommonJS for Electron's Node); bench/retopology bundles its child the same way. */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22', // Electron 45's Node
  sourcemap: 'linked',
  logLevel: 'warning',
  // Optional native speed-ups of ws, absent on purpose; electron is provided by the runtime.
  // sharp loads its native libvips binding from its own package folder: it is required at run time, not bundled.
  external: ['electron', 'bufferutil', 'utf-8-validate', 'sharp'],
  inject: [join(import.meta.dirname, 'cjs-shim.ts')],
  define: { 'import.meta.url': 'importMetaUrl', 'import.meta.dirname': '__dirname' },
};

/**
 * The worker threads' scripts, bundled beside the code that starts them: the embedded engine's
 * (main/engine/work/pool.ts starts engine-worker.cjs) and the library's thumbnails' (main/mesh/thumbnail-thread.ts
 * starts thumbnail-worker.cjs), the game-ready export's (main/gameready/thread.ts starts gameready-worker.cjs) and the engine-fit check's (main/fit/fit-thread.ts starts fit-worker.cjs). Each looks for its script in the folder of the module that starts them.
 */
const WORKERS = [
  { entry: join(ROOT, 'main', 'engine', 'work', 'worker.ts'), out: 'engine-worker.cjs' },
  { entry: join(ROOT, 'main', 'mesh', 'thumbnail-worker.ts'), out: 'thumbnail-worker.cjs' },
  { entry: join(ROOT, 'main', 'gameready', 'worker.ts'), out: 'gameready-worker.cjs' },
  { entry: join(ROOT, 'main', 'fit', 'fit-worker.ts'), out: 'fit-worker.cjs' },
] as const;

/** How the worker threads' scripts are bundled into `outDir`. */
export function workerBundles(outDir: string): BuildOptions[] {
  return WORKERS.map(({ entry, out }) => ({ ...NODE_BUNDLE, entryPoints: [entry], outfile: join(outDir, out) }));
}

/** The worker threads' files a build writes (workerBundles). */
export const WORKER_FILES = WORKERS.map((w) => w.out);

/**
 * The engine's Draco decoder (draco3dgltf, for compressed retopology inputs) loads its WebAssembly from the folder
 * of the script that runs it: in a bundle, the bundle's folder.
 */
export const DRACO_WASM = 'draco_decoder_gltf.wasm';
export function copyDracoDecoder(outDir: string): void {
  copyFileSync(
    join(dirname(createRequire(import.meta.url).resolve('draco3dgltf')), DRACO_WASM),
    join(outDir, DRACO_WASM),
  );
}
