// The Babylon SceneLoader plugin for .usdz and .usda, in its own lazily loaded chunk (../scene/configure.ts
// registers it). Nothing is fetched beyond the page's origin:
//  - When the OpenUSD importer runtime is installed (renderer/build.ts copies assets/vendor/babylon-usd-importer/
//    to babylon/babylonUsdImporter/ and says so in babylon/usd-runtime.json), Babylon's own USD loader opens
//    the file with that local runtime (never its CDN default). Should it fail, the built-in reader is tried.
//  - Otherwise the built-in reader (usd-file.ts → usd-to-babylon.ts) opens USDA text layers, packaged or
//    not; a binary USDC layer fails with a message saying what to do instead.
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import type {
  ISceneLoaderAsyncResult,
  ISceneLoaderPluginAsync,
  ISceneLoaderProgressEvent,
} from '@babylonjs/core/Loading/sceneLoader.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { readUsdScene } from './usd-file.ts';
import { USD_EXTENSIONS, USD_LOADER_NAME } from './usd-metadata.ts';
import { toAssetContainer } from './usd-to-babylon.ts';

/** The four files of Babylon's OpenUSD importer (the names its CDN folder babylonUsdImporter/<protocol>/ uses). */
export const USD_RUNTIME_FILES = {
  glueUrl: 'babylon-usd-importer.js',
  wasmUrl: 'babylon-usd-importer.wasm',
  dataUrl: 'babylon-usd-importer.data',
  workerUrl: 'babylon-usd-importer.worker.js',
} as const;

type RuntimeUrls = Record<keyof typeof USD_RUNTIME_FILES, string>;

let runtime: Promise<RuntimeUrls | undefined> | undefined;

/** The local runtime's URLs, if babylon/usd-runtime.json (written by the build) says it is installed. */
export function localUsdRuntime(): Promise<RuntimeUrls | undefined> {
  runtime ??= (async () => {
    const base = new URL('babylon/', document.baseURI);
    try {
      const response = await fetch(new URL('usd-runtime.json', base), { cache: 'no-cache' });
      if (!response.ok) return undefined;
      const manifest = (await response.json()) as { available?: unknown; folder?: unknown };
      if (manifest.available !== true) return undefined;
      const folder = new URL(typeof manifest.folder === 'string' ? manifest.folder : 'babylonUsdImporter/', base);
      if (folder.origin !== location.origin) return undefined; // local files only
      const urls = {} as RuntimeUrls;
      for (const [key, file] of Object.entries(USD_RUNTIME_FILES) as [keyof RuntimeUrls, string][])
        urls[key] = new URL(file, folder).href;
      return urls;
    } catch {
      return undefined;
    }
  })();
  return runtime;
}

function bytesOf(data: unknown): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new Error('The USD loader expects the file as binary data.');
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class UsdLoader implements ISceneLoaderPluginAsync {
  readonly name = USD_LOADER_NAME;
  readonly extensions = USD_EXTENSIONS;

  async loadAssetContainerAsync(
    scene: Scene,
    data: unknown,
    rootUrl: string,
    onProgress?: (event: ISceneLoaderProgressEvent) => void,
    fileName?: string,
  ): Promise<AssetContainer> {
    const bytes = bytesOf(data);
    const urls = await localUsdRuntime();
    if (urls) {
      try {
        const { USDFileLoader, _RegisterUSDLoaderDependencies } = await import(
          '@babylonjs/loaders/USD/usdFileLoader.pure.js'
        );
        _RegisterUSDLoaderDependencies(); // what its createPlugin() does (RegisterUSDFileLoader would take .usdz over)
        const loader = new USDFileLoader(urls);
        // Babylon's loader takes the bytes over (transferred to its worker): give it a copy.
        return await loader.loadAssetContainerAsync(scene, bytes.slice(), rootUrl, onProgress, fileName);
      } catch (error) {
        try {
          return toAssetContainer(scene, await readUsdScene(bytes));
        } catch (builtIn) {
          throw new Error(
            `The OpenUSD importer failed (${message(error)}), and so did the built-in reader: ${message(builtIn)}`,
          );
        }
      }
    }
    return toAssetContainer(scene, await readUsdScene(bytes));
  }

  async loadAsync(
    scene: Scene,
    data: unknown,
    rootUrl: string,
    onProgress?: (event: ISceneLoaderProgressEvent) => void,
    fileName?: string,
  ): Promise<void> {
    (await this.loadAssetContainerAsync(scene, data, rootUrl, onProgress, fileName)).addAllToScene();
  }

  async importMeshAsync(
    _names: string | readonly string[] | null | undefined,
    scene: Scene,
    data: unknown,
    rootUrl: string,
    onProgress?: (event: ISceneLoaderProgressEvent) => void,
    fileName?: string,
  ): Promise<ISceneLoaderAsyncResult> {
    const c = await this.loadAssetContainerAsync(scene, data, rootUrl, onProgress, fileName);
    c.addAllToScene();
    return {
      meshes: c.meshes,
      particleSystems: c.particleSystems,
      skeletons: c.skeletons,
      animationGroups: c.animationGroups,
      transformNodes: c.transformNodes,
      geometries: c.geometries,
      lights: c.lights,
      spriteManagers: c.spriteManagers,
    };
  }
}
