// Reading an FBX the way a viewer does: Babylon.js's FBX loader on a NullEngine (no GPU), for the FBX tests.
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/loaders/FBX/index.js';

/** Loads `fbx` and hands `check` the container and the loader's warnings; the engine is disposed afterwards. */
export async function withLoadedFbx(
  fbx: Buffer,
  check: (container: AssetContainer, warnings: unknown[]) => void,
): Promise<void> {
  Logger.LogLevels = Logger.ErrorLogLevel;
  const engine = new NullEngine();
  try {
    const warnings: unknown[] = [];
    const container = await LoadAssetContainerAsync(`data:;base64,${fbx.toString('base64')}`, new Scene(engine), {
      pluginExtension: '.fbx',
      pluginOptions: { fbx: { onWarning: (w) => warnings.push(w) } },
    });
    check(container, warnings);
  } finally {
    engine.dispose();
  }
}
