// Per-engine export presets: where an asset goes in the project, how its files are named, which formats
// each engine gets.
//
// Units and axes: every preset writes the files as the service made them (glTF: metres, Y up, +Z forward;
// FBX: with its own unit and axis settings in its header). All three engines' importers convert from there:
// Unity (glTFast/UnityGLTF, native FBX) and Godot (native glTF/FBX) are Y-up metres like glTF; Unreal's
// glTF/FBX import turns metres into its centimetres and Y-up into Z-up. Converting ourselves would make
// the importers convert twice, so nothing is scaled or rotated unless the user asks for transforms.
import { EXPORT_TARGETS, type ExportTarget } from '../../shared/export-options.ts';
import { styleName, uniqueName, type NameStyle } from './naming.ts';

/** Where an export goes (shared/export-options.ts): a game engine's project, or a plain folder. */
export { EXPORT_TARGETS, type ExportTarget };
export type GameEngine = Exclude<ExportTarget, 'folder'>;

/** What a source file is. `texture` is any image (a mesh's texture or a generated picture). */
export const FILE_KINDS = ['glb', 'fbx', 'obj', 'mtl', 'usdz', 'texture', 'zip', 'mp4'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
type MeshKind = Extract<FileKind, 'glb' | 'fbx' | 'obj' | 'usdz'>;

export interface Preset {
  engine: ExportTarget;
  label: string;
  /** The folder the engine imports from, relative to the project root ([] is the root itself). */
  contentDir: readonly string[];
  /** Where asset folders go unless the user picked a folder inside contentDir. */
  baseDir: readonly string[];
  style: NameStyle;
  /** Mesh formats written whenever they are given. */
  meshes: readonly MeshKind[];
  /** When none of `meshes` is given: the first of these that is. */
  fallbackMeshes: readonly MeshKind[];
  /** Other kinds written beside the mesh (an OBJ's MTL always goes with it). */
  extras: readonly FileKind[];
}

/**
 * Unity and Unreal get the same files under PascalCase names: GLB and FBX (Unity imports FBX natively and GLB
 * with the glTFast or UnityGLTF package; Unreal imports both), else the OBJ.
 */
const GLB_AND_FBX = { style: 'pascal', meshes: ['glb', 'fbx'], fallbackMeshes: ['obj'], extras: ['texture'] } as const satisfies Partial<Preset>;

export const PRESETS: Readonly<Record<ExportTarget, Preset>> = {
  unity: { engine: 'unity', label: 'Unity', contentDir: ['Assets'], baseDir: ['Assets', 'AssetStudio'], ...GLB_AND_FBX },
  unreal: { engine: 'unreal', label: 'Unreal', contentDir: ['Content'], baseDir: ['Content', 'AssetStudio'], ...GLB_AND_FBX },
  // res:// is the folder of project.godot; Godot 4.3+ also imports FBX natively.
  godot: {
    engine: 'godot',
    label: 'Godot',
    contentDir: [],
    baseDir: ['assets', 'asset_studio'],
    style: 'snake',
    meshes: ['glb'],
    fallbackMeshes: ['fbx', 'obj'],
    extras: ['texture'],
  },
  folder: {
    engine: 'folder',
    label: 'plain folder',
    contentDir: [],
    baseDir: [],
    style: 'keep',
    meshes: ['glb', 'fbx', 'obj', 'usdz'],
    fallbackMeshes: [],
    extras: ['texture', 'zip', 'mp4'],
  },
};

export interface Selection<F> {
  chosen: F[];
  skipped: { file: F; why: string }[];
}

/**
 * The files the preset writes. With `glbOnly` (transforms asked for) no other mesh format is written,
 * since only the GLB is transformed and the meshes in the folder must agree.
 */
export function selectFiles<F extends { kind: FileKind }>(preset: Preset, files: readonly F[], glbOnly: boolean): Selection<F> {
  const given = (kind: MeshKind) => files.some((f) => f.kind === kind);
  const meshes: readonly MeshKind[] = glbOnly
    ? ['glb']
    : preset.meshes.some(given)
      ? preset.meshes
      : preset.fallbackMeshes.filter(given).slice(0, 1);
  const written = new Set<FileKind>([...meshes, ...preset.extras, ...(meshes.includes('obj') ? (['mtl'] as const) : [])]);
  const out: Selection<F> = { chosen: [], skipped: [] };
  for (const file of files) {
    if (written.has(file.kind)) out.chosen.push(file);
    else out.skipped.push({ file, why: skipReason(preset, file.kind, meshes, glbOnly) });
  }
  return out;
}

function skipReason(preset: Preset, kind: FileKind, meshes: readonly MeshKind[], glbOnly: boolean): string {
  if (kind === 'mtl') return 'an MTL goes with its OBJ, which is not written';
  const isMesh = (preset.meshes as readonly FileKind[]).concat(preset.fallbackMeshes).includes(kind);
  if (glbOnly && isMesh) return 'transforms apply to the GLB only, and an untransformed copy would not match it';
  if (isMesh) return `${preset.label} gets ${meshes.map((m) => m.toUpperCase()).join(' and ')} here`;
  return `${preset.label} does not import .${kind} files`;
}

/** The name of a written file: `<asset><ext>`, or `<asset>_<part><ext>` for a texture, unique in `taken` (lower case). */
export function fileName(preset: Preset, asset: string, ext: string, taken: ReadonlySet<string>, part?: string): string {
  // `asset` is styled already; `keep` only cuts the joined name to length.
  const stem = styleName(part === undefined ? asset : `${asset}_${styleName(part, preset.style)}`, 'keep');
  return uniqueName(stem, (s) => taken.has(`${s}${ext}`.toLowerCase())) + ext;
}
