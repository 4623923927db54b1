// A plain folder: names kept as typed, the folder itself as the content folder. Not the zip (it holds the OBJ set
// again, and an export writes the model once). LODs: glTF's MSFT_lod (Babylon.js and three.js read it).
import { EXPORT_FORMATS } from '../../../shared/export-options.ts';
import type { ExportTargetModule } from './target.ts';

export const folder: ExportTargetModule = {
  preset: {
    engine: 'folder',
    label: 'plain folder',
    contentDir: [],
    baseDir: [],
    style: 'keep',
    meshes: EXPORT_FORMATS,
    fallbackMeshes: [],
    extras: ['texture', 'mp4'],
  },
  lods: 'msft-lod',
  fbxMetallicMap: 'roughness-metallic',
  fbxClips: 'one-per-clip',
};
