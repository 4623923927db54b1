// Godot: res:// is the folder of project.godot; assets under assets/asset_studio, snake_case names (Godot 4.3+ also
// imports FBX natively). LODs: none written — Godot 4's importer generates them ("Generate LODs", on by default),
// so a profile writes the base mesh within its budget.
import { join } from 'node:path';
import { EXPORT_FORMATS } from '../../../shared/export-options.ts';
import { isKind, type ExportTargetModule } from './target.ts';

export const godot: ExportTargetModule = {
  preset: {
    engine: 'godot',
    label: 'Godot',
    contentDir: [],
    baseDir: ['assets', 'asset_studio'],
    style: 'snake',
    meshes: EXPORT_FORMATS,
    fallbackMeshes: [],
    extras: ['texture'],
  },
  markers: { text: 'project.godot', test: (dir) => isKind(join(dir, 'project.godot'), 'file') },
  lods: 'engine-makes',
  fbxMetallicMap: 'roughness-metallic',
  fbxClips: 'one-per-clip',
};
