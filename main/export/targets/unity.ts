// Unity: assets under Assets/AssetStudio, PascalCase names. LODs: meshes named `<Name>_LOD0.._LODn` in one FBX,
// from which Unity's model importer builds a LOD Group ("Importing LOD Meshes"). Metallic: a metallic/smoothness
// map (Standard and URP Lit). Animated FBX clips: the model and `<Model>@<clip>.fbx` files (Unity's convention).
import { join } from 'node:path';
import { EXPORT_FORMATS } from '../../../shared/export-options.ts';
import { isKind, type ExportTargetModule } from './target.ts';

export const unity: ExportTargetModule = {
  preset: {
    engine: 'unity',
    label: 'Unity',
    contentDir: ['Assets'],
    baseDir: ['Assets', 'AssetStudio'],
    style: 'pascal',
    meshes: EXPORT_FORMATS,
    fallbackMeshes: [],
    extras: ['texture'],
  },
  markers: {
    text: 'Assets/ and ProjectSettings/ProjectVersion.txt',
    test: async (dir) =>
      (await isKind(join(dir, 'Assets'), 'dir')) && isKind(join(dir, 'ProjectSettings', 'ProjectVersion.txt'), 'file'),
  },
  lods: 'fbx-lod-names',
  fbxMetallicMap: 'metallic-smoothness',
  fbxClips: 'model-and-at-clips',
};
