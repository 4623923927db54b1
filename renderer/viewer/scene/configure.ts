// Done once per page, before the first viewer: compiled shaders kept, Babylon's decoders and the KTX2 worker
// from the app's own files, and the loaders this app opens registered (each loaded on first use).
//
// Nothing is fetched beyond the page's own origin: Tools.ScriptBaseUrl points Babylon's CDN URLs (Draco,
// meshopt, Basis) at `babylon/` beside app.js, where renderer/build.ts copies the decoders shipped in
// @babylonjs/core/assets; KTX2 textures are decoded by the app's own worker there (../ktx2/).
import { RegisterSceneLoaderPlugin } from '@babylonjs/core/Loading/sceneLoader.js';
import { Effect } from '@babylonjs/core/Materials/effect.js';
import { Tools } from '@babylonjs/core/Misc/tools.js';
import { FBXFileLoaderMetadata } from '@babylonjs/loaders/FBX/fbxFileLoader.metadata.js';
import { registerBuiltInGLTFExtensions } from '@babylonjs/loaders/glTF/2.0/Extensions/dynamic.js';
import { GLTFFileLoaderMetadata } from '@babylonjs/loaders/glTF/glTFFileLoader.metadata.js';
import { OBJFileLoaderMetadata } from '@babylonjs/loaders/OBJ/objFileLoader.metadata.js';
import { useLocalKtx2Decoder } from '../ktx2/local-decoder.ts';
import { USD_EXTENSIONS, USD_LOADER_NAME } from '../usd/usd-metadata.ts';

let configured = false;

/** Local decoders and the loaders this app opens (each its own chunk, fetched on first use). */
export function configureBabylon(): void {
  if (configured) return;
  configured = true;
  // Compiled shader programs are kept until the engine goes (the viewer closes), not released with the last
  // material using them: the next model of the same kind, or the grid made again for it, reuses them. A
  // software renderer (SwiftShader) spends tens of milliseconds compiling a PBR program.
  Effect.PersistentMode = true;
  Tools.ScriptBaseUrl = new URL('babylon/', document.baseURI).href;
  useLocalKtx2Decoder(Tools.ScriptBaseUrl); // KTX2 (KHR_texture_basisu): the app's worker, not Babylon's CDN decoder
  RegisterSceneLoaderPlugin({
    ...GLTFFileLoaderMetadata,
    createPlugin: async (options) => {
      const [{ GLTFFileLoader, RegisterGLTF2Loader }, { RegisterInstancedMesh }] = await Promise.all([
        import('@babylonjs/loaders/glTF/2.0/glTFLoader.pure.js'),
        import('@babylonjs/core/Meshes/instancedMesh.pure.js'),
      ]);
      RegisterInstancedMesh();
      RegisterGLTF2Loader();
      // Animations are not started on load (playback comes with the animation panel).
      return new GLTFFileLoader({ ...options[GLTFFileLoaderMetadata.name], animationStartMode: 0 });
    },
  });
  registerBuiltInGLTFExtensions();
  RegisterSceneLoaderPlugin({
    ...OBJFileLoaderMetadata,
    createPlugin: async (options) => {
      const { OBJFileLoader } = await import('@babylonjs/loaders/OBJ/objFileLoader.pure.js');
      return new OBJFileLoader(options[OBJFileLoaderMetadata.name]);
    },
  });
  RegisterSceneLoaderPlugin({
    ...FBXFileLoaderMetadata,
    createPlugin: async (options) => {
      const { FBXFileLoader } = await import('@babylonjs/loaders/FBX/fbxFileLoader.pure.js');
      // In metres like glTF (an FBX unit is UnitScaleFactor centimetres), so the box reads in metres too.
      return new FBXFileLoader({ unitScale: 'meters', ...options[FBXFileLoaderMetadata.name] });
    },
  });
  // USDZ/USDA: Babylon's OpenUSD loader when its runtime is installed locally, else the built-in reader (../usd/).
  RegisterSceneLoaderPlugin({
    name: USD_LOADER_NAME,
    extensions: USD_EXTENSIONS,
    createPlugin: async () => new (await import('../usd/usd-loader.ts')).UsdLoader(),
  });
}
