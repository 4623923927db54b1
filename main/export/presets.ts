// Per-engine export presets (each from its target's module, targets/): where an asset goes in the project, how its
// files are named, and the one mesh format each export writes (chooseFormat: the user's, else the engine's default).
//
// Units and axes: every preset writes the files as the service made them (glTF: metres, Y up, +Z forward;
// FBX: with its own unit and axis settings in its header). All three engines' importers convert from there:
// Unity (glTFast/UnityGLTF, native FBX) and Godot (native glTF/FBX) are Y-up metres like glTF; Unreal's
// glTF/FBX import turns metres into its centimetres and Y-up into Z-up. Converting ourselves would make
// the importers convert twice, so nothing is scaled or rotated unless the user asks for transforms.
import {
  EXPORT_FORMATS,
  EXPORT_TARGETS,
  formatOrder,
  formatRefusal,
  importableFormats,
  type ExportFormat,
  type ExportTarget,
  type FormatFacts,
} from '../../shared/export-options.ts';
import { ExportError } from './errors.ts';
import { styleName, uniqueName, type NameStyle } from './naming.ts';
import { TARGETS } from './targets/index.ts';

/** Where an export goes (shared/export-options.ts): a game engine's project, or a plain folder. */
export { EXPORT_FORMATS, EXPORT_TARGETS, type ExportFormat, type ExportTarget };
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
  /** Mesh formats this preset can write: one of them per export (formatOrder says which, chooseFormat picks). */
  meshes: readonly MeshKind[];
  /** Kept for callers that list what a preset takes; every mesh format is in `meshes`. */
  fallbackMeshes: readonly MeshKind[];
  /** Other kinds written beside the mesh (an OBJ's MTL always goes with it). */
  extras: readonly FileKind[];
}

/** Each target's preset, from its module (targets/: one file per target). */
export const PRESETS: Readonly<Record<ExportTarget, Preset>> = Object.fromEntries(
  EXPORT_TARGETS.map((t) => [t, TARGETS[t].preset]),
) as Record<ExportTarget, Preset>;

export interface FormatChoice {
  /** The one mesh format written; undefined when the files hold none of them. */
  format: ExportFormat | undefined;
  /** Said when the format was not the engine's default or cannot be imported as it is. */
  note?: string;
}

const upper = (f: string) => f.toUpperCase();

/**
 * The one mesh format an export writes. A format the user asked for must be one the engine imports and one
 * the files hold (else ExportError `bad-format`, naming the choices); without one, the engine's default
 * (shared/export-options.ts defaultFormat: Unity FBX, or GLB with glTFast/UnityGLTF; Unreal FBX; Godot and a
 * plain folder GLB), else the next format the files hold in formatOrder.
 */
export function chooseFormat(facts: FormatFacts, kinds: readonly FileKind[], requested?: ExportFormat): FormatChoice {
  const given = EXPORT_FORMATS.filter((f) => kinds.includes(f));
  const label = PRESETS[facts.engine].label;
  const choices = importableFormats(facts).filter((f) => given.includes(f));
  const fix =
    choices.length > 0
      ? `Choose ${choices.map(upper).join(' or ')}`
      : "Download the model's other formats first, or export to a plain folder";
  if (requested !== undefined) {
    const refusal = formatRefusal(facts, requested);
    if (refusal)
      throw new ExportError('bad-format', {
        file: `${upper(requested)} for ${label}`,
        why: `is refused: ${refusal}`,
        fix,
      });
    if (!given.includes(requested)) {
      const has = given.length > 0 ? `it has ${given.map(upper).join(', ')}` : 'it has no model file';
      throw new ExportError('bad-format', {
        file: `${upper(requested)} for ${label}`,
        why: `is not among this result's files (${has})`,
        fix,
      });
    }
    return { format: requested };
  }
  const order = formatOrder(facts);
  const first = order.find((f) => given.includes(f) && formatRefusal(facts, f) === undefined);
  if (first)
    return first === order[0]
      ? { format: first }
      : { format: first, note: `${label} gets ${upper(first)}: this result has no ${upper(order[0]!)}` };
  const fallback = order.find((f) => given.includes(f));
  if (fallback)
    return {
      format: fallback,
      note: `${upper(fallback)} is this result's only model format: ${formatRefusal(facts, fallback)}`,
    };
  return { format: undefined };
}

export interface Selection<F> {
  chosen: F[];
  skipped: { file: F; why: string }[];
}

/**
 * The files the preset writes: the mesh in `format` only (one format per export, so the engine imports the
 * model once) with its MTL for an OBJ, and the extras. With `glbOnly` (transforms asked for) the GLB is the
 * mesh, since only the GLB is transformed.
 */
export function selectFiles<F extends { kind: FileKind }>(
  preset: Preset,
  files: readonly F[],
  glbOnly: boolean,
  format: ExportFormat | undefined = chooseFormat(
    { engine: preset.engine },
    files.map((f) => f.kind),
  ).format,
): Selection<F> {
  const mesh: MeshKind | undefined = glbOnly ? 'glb' : format;
  const written = new Set<FileKind>([
    ...(mesh ? [mesh] : []),
    ...preset.extras,
    ...(mesh === 'obj' ? (['mtl'] as const) : []),
  ]);
  const out: Selection<F> = { chosen: [], skipped: [] };
  for (const file of files) {
    if (written.has(file.kind)) out.chosen.push(file);
    else out.skipped.push({ file, why: skipReason(preset, file.kind, mesh, glbOnly) });
  }
  return out;
}

function skipReason(preset: Preset, kind: FileKind, mesh: MeshKind | undefined, glbOnly: boolean): string {
  if (kind === 'mtl') return 'an MTL goes with its OBJ, which is not written';
  const isMesh = (preset.meshes as readonly FileKind[]).includes(kind);
  if (glbOnly && isMesh) return 'transforms apply to the GLB only, and an untransformed copy would not match it';
  if (isMesh && mesh)
    return `${preset.label} gets ${upper(mesh)} here: one format per export, so the model is imported once`;
  if (kind === 'zip')
    return 'the zip holds the model again (its OBJ, MTL and textures): an export writes the model once';
  if (kind === 'usdz')
    return `USDZ is for Apple's viewers, not an export format (${EXPORT_FORMATS.map(upper).join(', ')} are)`;
  return `${preset.label} does not import .${kind} files`;
}

/** The name of a written file: `<asset><ext>`, or `<asset>_<part><ext>` for a texture, unique in `taken` (lower case). */
export function fileName(
  preset: Preset,
  asset: string,
  ext: string,
  taken: ReadonlySet<string>,
  part?: string,
): string {
  // `asset` is styled already; `keep` only cuts the joined name to length.
  const stem = styleName(part === undefined ? asset : `${asset}_${styleName(part, preset.style)}`, 'keep');
  return uniqueName(stem, (s) => taken.has(`${s}${ext}`.toLowerCase())) + ext;
}
