// Reading a model into an AssetContainer (not yet in the scene): from local files (the model and the files
// beside it, found by name through Babylon's file store) or from a URL of this host. Its companion files are
// checked first (../companion-files.ts): a .gltf's missing buffer or image is named, an OBJ whose material
// library is not there opens without materials and says why.
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { FilesInputStore } from '@babylonjs/core/Misc/filesInputStore.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { OBJFileLoaderMetadata } from '@babylonjs/loaders/OBJ/objFileLoader.metadata.js';
import { checkGltfFiles, objMaterialLibrary, urlExists } from '../companion-files.ts';
import { takeKtx2Failures } from '../ktx2/local-decoder.ts';
import type { ModelFormat, ModelSource } from '../types.ts';

const FORMATS: readonly ModelFormat[] = ['glb', 'gltf', 'obj', 'fbx', 'usdz', 'usda'];

export function formatOf(name: string): ModelFormat | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return (FORMATS as readonly string[]).includes(ext) ? (ext as ModelFormat) : undefined;
}

/** A source ready for the loader: what to read, as which format, and what the view will lack (warnings). */
export interface PreparedSource {
  input: string | File;
  format: ModelFormat;
  /** `file:` for picked files (the file store), '' for a URL (its own folder). */
  rootUrl: string;
  /** The OBJ's material library is missing: read without materials. */
  skipMaterials: boolean;
  warnings: string[];
}

/**
 * Puts picked files in Babylon's file store (replacing the last model's) and checks the files a model names
 * beside itself. Rejects with what to do when a model cannot open (no model among the files, a .gltf's
 * missing file).
 */
export async function prepareSource(source: ModelSource): Promise<PreparedSource> {
  const warnings: string[] = [];
  let skipMaterials = false;
  if ('files' in source) {
    const main = source.files.find((f) => formatOf(f.name));
    if (!main)
      throw new Error(
        'None of these files is a model: choose a .glb, .gltf, .obj, .fbx or .usdz file (with its .mtl, .bin and textures beside it).',
      );
    // Beside files (MTL, textures, .bin) are found by name through Babylon's file store.
    for (const key of Object.keys(FilesInputStore.FilesToLoad)) delete FilesInputStore.FilesToLoad[key];
    for (const f of source.files) FilesInputStore.FilesToLoad[f.name.toLowerCase()] = f;
    const format = formatOf(main.name)!;
    if (format === 'gltf') await checkGltfFiles(main, source.files);
    if (format === 'obj') {
      const library = await objMaterialLibrary(main);
      if (
        library !== undefined &&
        !source.files.some((f) => f.name.toLowerCase() === library.split(/[\\/]/).pop()!.toLowerCase())
      ) {
        skipMaterials = true;
        warnings.push(
          `${main.name} names the material library ${library}, which was not picked with it: shown without its materials. Pick the .obj together with its .mtl and textures.`,
        );
      }
    }
    return { input: main, format, rootUrl: 'file:', skipMaterials, warnings };
  }
  const input = new URL(source.url, document.baseURI).href;
  const format = source.format;
  if (format === 'obj') {
    const library = await objMaterialLibrary(input);
    if (library !== undefined && !(await urlExists(new URL(library, input).href))) {
      skipMaterials = true;
      warnings.push(
        `This OBJ names the material library ${library}, which is not beside it: shown without its materials.`,
      );
    }
  }
  return { input, format, rootUrl: '', skipMaterials, warnings };
}

/** Reads the model; `onProgress`: the share read so far, when the length is known. */
export async function readContainer(
  scene: Scene,
  source: PreparedSource,
  onProgress?: (share: number) => void,
): Promise<AssetContainer> {
  const { input, format, rootUrl, skipMaterials } = source;
  takeKtx2Failures(); // (those of an earlier model)
  try {
    return await LoadAssetContainerAsync(input, scene, {
      pluginExtension: `.${format}`,
      ...(rootUrl && { rootUrl }),
      ...(skipMaterials && { pluginOptions: { [OBJFileLoaderMetadata.name]: { skipMaterials: true } } }),
      ...(onProgress && {
        onProgress: (e: { lengthComputable: boolean; loaded: number; total: number }) =>
          e.lengthComputable && e.total > 0 && onProgress(Math.min(1, e.loaded / e.total)),
      }),
    });
  } catch (error) {
    // Babylon says only that a texture failed to load; the KTX2 decoder said why.
    const ktx2 = takeKtx2Failures();
    if (ktx2.length > 0)
      throw new Error(`${error instanceof Error ? error.message : String(error)} (KTX2 texture: ${ktx2[0]})`);
    throw error;
  }
}
