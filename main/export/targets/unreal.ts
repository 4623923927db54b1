// Unreal: assets under Content/AssetStudio, PascalCase names. LODs: an FBX whose LOD meshes are children of a node
// with a `LodGroup` attribute (Unreal's "Import Mesh LODs"). Metallic: glTF's roughness/metallic map (the G and B of
// Unreal's ORM packing). Animated FBX clips: one FBX per clip, as the service delivers them.
import { readdir } from 'node:fs/promises';
import { EXPORT_FORMATS } from '../../../shared/export-options.ts';
import type { ExportTargetModule } from './target.ts';

export const unreal: ExportTargetModule = {
  preset: {
    engine: 'unreal',
    label: 'Unreal',
    contentDir: ['Content'],
    baseDir: ['Content', 'AssetStudio'],
    style: 'pascal',
    meshes: EXPORT_FORMATS,
    fallbackMeshes: [],
    extras: ['texture'],
  },
  markers: {
    text: 'a *.uproject file',
    test: async (dir) => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      return entries.some((e) => e.isFile() && e.name.toLowerCase().endsWith('.uproject'));
    },
  },
  lods: 'fbx-lod-group',
  fbxMetallicMap: 'roughness-metallic',
  fbxClips: 'one-per-clip',
};
