// What one export target is, in one place (one file per target beside this one, index.ts lists them): where its
// assets go and how they are named (its preset), how its project is recognised (its markers), and how it imports
// what a profile makes (LODs, PBR maps) and an animated character's clips. A new engine is one file here and one
// test; shared/export-options.ts keeps the target's words the UI shows (label, axes, formats it imports).
import { stat } from 'node:fs/promises';
import type { Preset } from '../presets.ts';

export interface ExportTargetModule {
  preset: Preset;
  /** How its project is recognised, from a folder (none for a plain folder). */
  markers?: { text: string; test: (dir: string) => Promise<boolean> };
  /** How it imports a profile's LOD chain: FBX meshes named `_LOD0.._LODn`, an FBX LodGroup node, glTF MSFT_lod, or its own LODs. */
  lods: 'fbx-lod-names' | 'fbx-lod-group' | 'msft-lod' | 'engine-makes';
  /** The metallic map written beside an FBX: Unity's metallic/smoothness, or glTF's roughness/metallic (Unreal's ORM G and B). */
  fbxMetallicMap: 'metallic-smoothness' | 'roughness-metallic';
  /** An animated character's FBX clips as FBX: a model and `<Model>@<clip>.fbx` files, or one FBX per clip. */
  fbxClips: 'model-and-at-clips' | 'one-per-clip';
}

export async function isKind(path: string, kind: 'file' | 'dir'): Promise<boolean> {
  const s = await stat(path).catch(() => undefined);
  return kind === 'file' ? s?.isFile() === true : s?.isDirectory() === true;
}
