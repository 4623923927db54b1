// What the UI (renderer/src/screens/viewer/) uses of the viewer, and all it may import from renderer/viewer/:
// the types of the Viewer it drives (its camera link, export preview and bone count included), loadBabylon()
// for the Babylon side (viewer/babylon.js: createViewer), the FBX check, and the glTF validator (its own chunk, loaded
// on first use). Nothing here imports Babylon: app.js stays free of it.
export type { Babylon } from './load-babylon.ts';
export { loadBabylon } from './load-babylon.ts';
export type {
  EnvironmentChoice,
  ModelFormat,
  ModelSource,
  ModelStats,
  Playback,
  PreviewTransforms,
  TextureInfo,
  UrlSource,
  Viewer,
  ViewMode,
} from './types.ts';
export { PBR_MODES } from './types.ts';
export type { FbxCheck, FbxChecker } from './fbx-check.ts';
export { createFbxChecker } from './fbx-check.ts';
export type { ValidationSummary } from './validate.ts';

/** The Khronos glTF validator (validate.ts and the validator, ~300 KB, in a chunk of their own). */
export const loadValidator = (): Promise<typeof import('./validate.ts')> => import('./validate.ts');
