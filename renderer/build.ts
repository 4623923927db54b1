// Bundles the renderer with esbuild: index.html, app.js, app.css (no inline scripts or styles: the
// pages are served with a strict CSP), chunks/ (UI code loaded on demand), viewer/babylon.js (the viewer's
// Babylon.js side, one file), environment/studio.hdr (the viewer's default lighting, generated), and
// babylon/ (the decoders Babylon would otherwise fetch from its CDN). Run as a script
// (`node renderer/build.ts [--watch] [--dev]`) or call buildRenderer() (the tests do, into a temporary folder).
// A build is written into a temporary folder beside the output and renamed into place, with a stamp of its
// inputs (scripts/build-output.ts): `ifStale` skips it when the output's stamp is current, so `npm start` and
// `npm run web` build only after a change, and two of them at once never write over each other.
import { access, cp, copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build, context, type BuildOptions, type PluginBuild } from 'esbuild';
import { inputsStamp, readStamp, replaceWithBuild, stagingDir } from '../scripts/build-output.ts';
import { writeStudioHdr } from './environment/studio-hdr.ts';

const HERE = import.meta.dirname;

/**
 * Babylon's decoders, from @babylonjs/core/assets, copied to `babylon/` where Tools.ScriptBaseUrl points
 * (renderer/viewer/scene/configure.ts), under the names Babylon asks its CDN for: Draco (glTF KHR_draco_mesh_compression;
 * the WASM wrapper, its binary, and the asm.js fallback), meshopt (EXT_meshopt_compression) and Basis (.basis
 * textures). The KTX2 decoder (KHR_texture_basisu) is not shipped in node_modules: such a texture fails to load
 * from this host rather than reaching the CDN.
 */
const BABYLON_ASSETS: readonly [from: string, to: string][] = [
  ['Draco/draco_wasm_wrapper_gltf.js', 'draco_wasm_wrapper_gltf.js'],
  ['Draco/draco_decoder_gltf.wasm', 'draco_decoder_gltf.wasm'],
  ['Draco/draco_decoder_gltf.js', 'draco_decoder_gltf.js'],
  ['Draco/draco.license', 'draco.license'],
  ['meshopt/meshopt_decoder.js', 'meshopt_decoder.js'],
  ['meshopt/meshopt.license', 'meshopt.license'],
  ['Basis/basis_transcoder.js', 'basisTranscoder/1/basis_transcoder.js'],
  ['Basis/basis_transcoder.wasm', 'basisTranscoder/1/basis_transcoder.wasm'],
];

/**
 * Babylon's OpenUSD importer runtime (for its USD loader: USDC layers, composition, materials) is not in
 * node_modules and is never fetched from its CDN. When `assets/vendor/babylon-usd-importer/` holds its four
 * files (taken from the CDN folder `babylonUsdImporter/<protocol>/` matching @babylonjs/loaders), they are
 * copied to `babylon/babylonUsdImporter/`. `babylon/usd-runtime.json` always says whether they are there: the
 * viewer (renderer/viewer/usd/usd-loader.ts) reads it and otherwise opens USDZ with its built-in reader.
 */
const USD_RUNTIME_DIR = join(HERE, '..', 'assets', 'vendor', 'babylon-usd-importer');
const USD_RUNTIME_FILES = [
  'babylon-usd-importer.js',
  'babylon-usd-importer.wasm',
  'babylon-usd-importer.data',
  'babylon-usd-importer.worker.js',
];

export interface RendererBuildOptions {
  /** Output folder (created); default `dist/renderer` of the checkout. */
  outDir?: string;
  minify?: boolean;
  sourcemap?: boolean;
  /** Skip the build when the output's stamp says it was built from the same inputs (default: always build). */
  ifStale?: boolean;
}

export interface RendererBuild {
  outDir: string;
  files: string[];
  /** False when the output was current and left as it was (`ifStale`). */
  built: boolean;
}

/**
 * What a build is made of: the UI's sources (renderer/, this script included), shared/, the lockfile (the
 * versions of preact, Babylon, esbuild…) and the OpenUSD importer runtime when it is there.
 */
const RENDERER_INPUTS = [HERE, join(HERE, '..', 'shared'), join(HERE, '..', 'package-lock.json'), USD_RUNTIME_DIR];

/** The stamp of a build of the current sources with these options. */
export function rendererStamp(minify: boolean, sourcemap: boolean): string {
  return inputsStamp(join(HERE, '..'), RENDERER_INPUTS, { minify, sourcemap });
}

const BUILD_FILES = [
  'index.html',
  'app.js',
  'app.css',
  'chunks/',
  'viewer/babylon.js',
  'babylon/',
  'environment/studio.hdr',
];

function options(outDir: string, minify: boolean, sourcemap: boolean): BuildOptions {
  return {
    entryPoints: { app: join(HERE, 'src', 'main.tsx'), 'app-style': join(HERE, 'styles', 'app.css') },
    outdir: outDir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify,
    sourcemap: sourcemap ? 'linked' : false,
    legalComments: 'linked',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': JSON.stringify(minify ? 'production' : 'development') },
    // The renderer must never pull Node modules in: fail the build if one is reached.
    plugins: [
      {
        // zod's namespace re-exports all its ~40 message locales (260 KB); the app speaks English.
        name: 'zod-english-only',
        setup(b) {
          b.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
            /[\\/]zod[\\/]/.test(args.importer)
              ? {
                  path: 'zod-locales',
                  namespace: 'zod-locales',
                  pluginData: join(args.resolveDir, '..', 'locales', 'en.js'),
                }
              : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
            contents: `export { default as en } from ${JSON.stringify(args.pluginData as string)};`,
            loader: 'js',
            resolveDir: HERE,
          }));
        },
      },
      {
        name: 'no-node-builtins',
        setup(b) {
          b.onResolve(
            { filter: /^node:|^(fs|path|os|child_process|crypto|net|http|https|url|util|stream)$/ },
            (args) => ({
              errors: [
                {
                  text: `The renderer imports the Node module "${args.path}" (from ${args.importer}); the UI must only use the bridge.`,
                },
              ],
            }),
          );
        },
      },
    ],
  };
}

/**
 * The viewer's Babylon.js side (renderer/viewer/babylon.ts) as one file, `viewer/babylon.js`, without code
 * splitting: its loaders and materials are inlined rather than spread over ~100 small chunks that the page
 * would discover one import level after another when a model is opened. The UI loads it by URL
 * (renderer/viewer/load-babylon.ts), so no Babylon code is in app.js or chunks/.
 */
function babylonOptions(outDir: string, minify: boolean, sourcemap: boolean): BuildOptions {
  const base = options(outDir, minify, sourcemap);
  const webglOnly = {
    // The viewer's engine is WebGL (viewer/scene/stage.ts): the WebGPU shaders (WGSL, ~550 KB) are never imported.
    name: 'webgl-only',
    setup(b: PluginBuild) {
      b.onResolve({ filter: /[\\/]ShadersWGSL[\\/]/ }, () => ({ path: 'wgsl', namespace: 'webgl-only' }));
      b.onLoad({ filter: /.*/, namespace: 'webgl-only' }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  };
  return {
    ...base,
    entryPoints: { babylon: join(HERE, 'viewer', 'babylon.ts') },
    entryNames: 'viewer/[name]',
    splitting: false,
    plugins: [...(base.plugins ?? []), webglOnly],
  };
}

/** The KTX2 decoder worker (renderer/viewer/ktx2/ktx2-worker.ts): a classic worker script beside the decoders. */
function ktx2WorkerOptions(outDir: string, minify: boolean, sourcemap: boolean): BuildOptions {
  return {
    entryPoints: { 'ktx2-worker': join(HERE, 'viewer', 'ktx2', 'ktx2-worker.ts') },
    outdir: join(outDir, 'babylon'),
    bundle: true,
    format: 'iife',
    target: ['chrome120'],
    minify,
    sourcemap,
    logLevel: 'warning',
  };
}

export async function buildRenderer(opts: RendererBuildOptions = {}): Promise<RendererBuild> {
  const outDir = resolve(opts.outDir ?? join(HERE, '..', 'dist', 'renderer'));
  const minify = opts.minify ?? true;
  const sourcemap = opts.sourcemap ?? false;
  const stamp = rendererStamp(minify, sourcemap);
  if (opts.ifStale && readStamp(outDir) === stamp) return { outDir, files: BUILD_FILES, built: false };
  await mkdir(dirname(outDir), { recursive: true });
  const staging = stagingDir(outDir);
  try {
    await Promise.all([
      build(options(staging, minify, sourcemap)),
      build(babylonOptions(staging, minify, sourcemap)),
      build(ktx2WorkerOptions(staging, minify, sourcemap)),
    ]);
    await finish(staging);
    replaceWithBuild(staging, outDir, stamp);
  } finally {
    await rm(staging, { recursive: true, force: true }); // gone already unless the build failed
  }
  return { outDir, files: BUILD_FILES, built: true };
}

/** esbuild names the CSS entry after it; the page wants app.css. Then the page and Babylon's decoders. */
async function finish(outDir: string) {
  await rename(join(outDir, 'app-style.css'), join(outDir, 'app.css'));
  await copyFile(join(HERE, 'index.html'), join(outDir, 'index.html'));
  const assets = join(dirname(createRequire(import.meta.url).resolve('@babylonjs/core/package.json')), 'assets');
  for (const [from, to] of BABYLON_ASSETS) {
    await mkdir(dirname(join(outDir, 'babylon', to)), { recursive: true });
    await cp(join(assets, from), join(outDir, 'babylon', to));
  }
  const usdRuntime = join(outDir, 'babylon', 'babylonUsdImporter');
  await rm(usdRuntime, { recursive: true, force: true });
  const present = await Promise.all(
    USD_RUNTIME_FILES.map((f) =>
      access(join(USD_RUNTIME_DIR, f)).then(
        () => true,
        () => false,
      ),
    ),
  );
  const available = present.every(Boolean);
  if (available) await cp(USD_RUNTIME_DIR, usdRuntime, { recursive: true });
  else if (present.some(Boolean))
    console.warn(
      `${USD_RUNTIME_DIR} lacks ${USD_RUNTIME_FILES.filter((_, i) => !present[i]).join(', ')}: the OpenUSD importer runtime is left out.`,
    );
  await writeFile(
    join(outDir, 'babylon', 'usd-runtime.json'),
    `${JSON.stringify(available ? { available, folder: 'babylonUsdImporter/', files: USD_RUNTIME_FILES } : { available })}\n`,
  );
  await writeStudioHdr(join(outDir, 'environment', 'studio.hdr')); // the viewer's default lighting (renderer/environment/)
}

async function main(argv: string[]) {
  const dev = argv.includes('--dev');
  const outIndex = argv.indexOf('--out');
  const outDir = resolve(
    outIndex >= 0 && argv[outIndex + 1] ? argv[outIndex + 1]! : join(HERE, '..', 'dist', 'renderer'),
  );
  if (argv.includes('--watch')) {
    await mkdir(outDir, { recursive: true });
    const ctx = await context({
      ...options(outDir, !dev, dev),
      plugins: [
        ...(options(outDir, !dev, dev).plugins ?? []),
        {
          name: 'finish',
          setup: (b) =>
            b.onEnd(async (r) => {
              if (r.errors.length === 0) {
                await finish(outDir);
                console.log(`renderer rebuilt in ${outDir}`);
              }
            }),
        },
      ],
    });
    const viewerCtx = await context(babylonOptions(outDir, !dev, dev));
    const workerCtx = await context(ktx2WorkerOptions(outDir, !dev, dev));
    await Promise.all([ctx.watch(), viewerCtx.watch(), workerCtx.watch()]);
    console.log(`watching renderer/ → ${outDir}`);
    return;
  }
  const started = performance.now();
  const result = await buildRenderer({ outDir, minify: !dev, sourcemap: dev, ifStale: argv.includes('--if-stale') });
  console.log(
    result.built
      ? `renderer built in ${Math.round(performance.now() - started)} ms → ${result.outDir}`
      : `renderer is current (nothing changed since its build) → ${result.outDir}`,
  );
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
