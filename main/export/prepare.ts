// What an export writes, made in memory before anything is named or staged: the GLB with the chosen
// animation clips (clips.ts), transformed (transform.ts), and with transforms the FBX or OBJ made from that
// transformed model (convert.ts) in place of the untransformed ones, so that every format written is the
// same model. Files that need no change are read from where they are.
import { readFile } from 'node:fs/promises';
import type { ExportFormat, ExportTarget } from '../../shared/export-options.ts';
import { gatherTakes, readFbxClip, unityClipFiles } from './clip-files.ts';
import { TARGETS } from './targets/index.ts';
import type { Bounds } from './bounds.ts';
import { chooseClips, mergeClips, type ClipSource } from './clips.ts';
import { convertGlb } from './convert.ts';
import { writeSkinnedFbx } from '../formats/fbx-skinned.ts';
import { readSkinnedGlb } from '../formats/glb-skinned.ts';
import { writeSkinnedGlb } from '../formats/skinned-glb.ts';
import { ExportError, ioError } from './errors.ts';
import type { GameReadyReport } from '../gameready/gameready.ts';
import { gameReadyFiles, type ProfileStep } from './gameready-files.ts';
import type { FileKind } from './presets.ts';
import { hasTransforms, transformGlb, type Transforms } from './transform.ts';

/** A file an export can write: on disk (`path`) or made in memory (`data`). */
export interface PreparedFile {
  kind: FileKind;
  path: string;
  name?: string;
  /** The bytes to write, when they were made in memory (merged, transformed, converted). */
  data?: Uint8Array;
  transformed?: boolean;
  /** The clip this file holds, when it is one file per clip (the service's FBX clips): it is named after it. */
  clip?: string;
  /** A map written beside the model that the model names (an FBX's maps with a profile): written though no MTL names it. */
  companion?: boolean;
  /** `at`: a clip's animation file named `<Model>@<clip>` (Unity's convention), not `<Model>_<clip>`. */
  clipFile?: 'at';
}

export interface PrepareOptions {
  transforms?: Transforms | undefined;
  /** The mesh format the export writes: with transforms, an FBX or OBJ is made from the transformed GLB. */
  format?: ExportFormat | undefined;
  /** The clips the GLB gathers (an animation job's); `keepClips` chooses among them (all when undefined). */
  clips?: readonly ClipSource[] | undefined;
  keepClips?: readonly string[] | undefined;
  /** The export's target: Unity gets an animated FBX as a model and one `<Model>@<clip>.fbx` per clip. */
  engine?: ExportTarget | undefined;
  /** A target profile to apply (gameready-files.ts): LODs, the budget, texture sizes. */
  gameReady?: Omit<ProfileStep, 'format'> | undefined;
}

export interface Prepared<F extends PreparedFile> {
  files: F[];
  /** Given files replaced by ones made from the transformed model, with why. */
  replaced: { file: F; why: string }[];
  bbox?: Bounds;
  clips?: { written: string[]; skipped: { name: string; why: string }[] };
  /** How the clips are written, for the plan (one FBX per clip). */
  note?: string;
  /** What the profile made of the model: LOD levels, texture sizes, what was fixed. */
  gameReady?: GameReadyReport;
}

/** The program an FBX or GLB made by the export names as its writer. */
const CREATOR = 'Asset Studio export';

const MESH_OR_COMPANION: ReadonlySet<FileKind> = new Set(['fbx', 'obj', 'mtl', 'usdz', 'zip']);

export async function prepareFiles<F extends PreparedFile>(
  files: readonly F[],
  options: PrepareOptions,
): Promise<Prepared<F>> {
  const glb = files.find((f) => f.kind === 'glb');
  const clips =
    options.clips !== undefined && options.clips.length > 0 ? chooseClips(options.clips, options.keepClips) : undefined;
  const transforms = hasTransforms(options.transforms) ? options.transforms : undefined;
  const step = options.gameReady;
  if (clips?.some((c) => c.format === 'fbx'))
    return fbxClips(files, clips, options.format, transforms, step, options.engine ?? step?.engine);
  if (glb === undefined || (clips === undefined && transforms === undefined && step === undefined))
    return { files: [...files], replaced: [] };

  const out: Prepared<F> = { files: [], replaced: [] };
  let bytes = await readSource(glb);
  if (clips !== undefined) {
    const merged = await mergeClips({ path: glb.path, bytes }, clips, (path) =>
      readFile(path).catch((error: unknown) => Promise.reject(ioError(path, 'reading a clip', error))),
    );
    bytes = merged.glb;
    out.clips = { written: merged.clips, skipped: merged.skipped };
  }
  if (transforms !== undefined) {
    const t = await transformGlb(bytes, transforms, glb.path);
    bytes = t.glb;
    if (t.bbox) out.bbox = t.bbox;
  }
  if (step !== undefined && clips !== undefined && options.format === 'fbx') {
    // An animated model as one FBX with takes: LOD0 within the budget and the maps fitted, no LOD meshes.
    const ready = await gameReadyFiles(bytes, glb.path, { ...step, format: 'glb', lods: false });
    bytes = ready.files[0]!.data;
    out.gameReady = ready.report;
  } else if (step !== undefined) return gameReadyPrepared(files, glb, bytes, out, step, options.format);
  const made = { ...glb, data: bytes, transformed: transforms !== undefined || step !== undefined } as F;
  if ((transforms === undefined || step !== undefined) && clips !== undefined && options.format === 'fbx') {
    // An engine that imports FBX only (Unity without a glTF package): the clips as takes of one FBX.
    const character = await readSkinnedGlb(bytes, glb.name ?? glb.path);
    if (character !== undefined && character.takes.length > 0) {
      const fbx = { ...glb, kind: 'fbx', name: 'model.fbx', data: writeSkinnedFbx(character, CREATOR) } as F;
      out.files = [...files.filter((f) => f.kind !== 'glb' && f.kind !== 'fbx'), fbx];
      out.note = `One FBX with every clip (${character.takes.length}) as a take, made from the GLB clips`;
      return out;
    }
  }
  if (transforms === undefined) {
    out.files = files.map((f) => (f === glb ? made : f));
    return out;
  }
  // Transformed: the untransformed meshes would not match; the format asked for is made from the GLB.
  const remade = new Set<FileKind>(
    options.format === 'obj' ? ['obj', 'mtl', 'texture'] : options.format === 'fbx' ? ['fbx'] : [],
  );
  const why = (f: F) =>
    remade.has(f.kind)
      ? 'it is made again from the transformed model, so that it matches the GLB'
      : 'an untransformed copy would not match the transformed model';
  out.replaced = files
    .filter((f) => MESH_OR_COMPANION.has(f.kind) || (f.kind === 'texture' && files.some((g) => g.kind === 'mtl')))
    .map((file) => ({ file, why: why(file) }));
  const replaced = new Set(out.replaced.map((r) => r.file));
  const converted =
    options.format === 'fbx' || options.format === 'obj'
      ? await convertGlb(bytes, options.format, glb.name ?? glb.path)
      : [];
  out.files = [
    ...files.filter((f) => !replaced.has(f)).map((f) => (f === glb ? made : f)),
    ...converted.map((c) => ({ ...c, path: glb.path, transformed: true }) as F),
  ];
  return out;
}

/** The files of an export with a profile: the game-ready model in the format asked for, in place of every given mesh. */
async function gameReadyPrepared<F extends PreparedFile>(
  files: readonly F[],
  glb: F,
  bytes: Uint8Array,
  out: Prepared<F>,
  step: Omit<ProfileStep, 'format'>,
  format: ExportFormat | undefined,
): Promise<Prepared<F>> {
  const ready = await gameReadyFiles(bytes, glb.path, { ...step, format });
  const why = `it is made again from the model made ready for ${step.profile.label}, so that every file matches it`;
  out.replaced = files
    .filter((f) => f !== glb && (MESH_OR_COMPANION.has(f.kind) || f.kind === 'texture'))
    .map((file) => ({ file, why }));
  const replaced = new Set<PreparedFile>(out.replaced.map((r) => r.file));
  const written = ready.files.find((f) => f.kind !== 'texture')?.kind;
  if (written !== undefined && written !== 'glb')
    out.replaced.unshift({
      file: glb,
      why: `the ${written.toUpperCase()} written is made of it, made ready for ${step.profile.label}`,
    });
  out.files = [
    ...files.filter((f) => f !== glb && !replaced.has(f)),
    ...ready.files.map(
      (c) =>
        ({
          kind: c.kind,
          path: glb.path,
          name: c.name,
          data: c.data,
          transformed: true,
          ...(c.kind === 'texture' && { companion: true }),
        }) as F,
    ),
  ];
  out.gameReady = ready.report;
  out.note = out.note === undefined ? ready.note : `${out.note}. ${ready.note}`;
  return out;
}

/**
 * The clips of an animation whose files are FBX (the service's: each the character, its mesh, skin and bones,
 * with one take named after the prompt). For FBX (Unity, Unreal) they are written as they are, one FBX per
 * clip, named after the clip: each imports as the model with its animation (Unity: one AnimationClip per file,
 * all on the same avatar); transforms are refused there (baking them into an FBX would need its rig rewritten,
 * and the engines' importers scale and turn FBX themselves). For GLB (Godot, a plain folder) one GLB is made
 * with every clip: the character read from the first clip's FBX and each clip's take sampled on its bones
 * (main/formats/fbx-read.ts, skinned-glb.ts), then transformed like any GLB.
 */
async function fbxClips<F extends PreparedFile>(
  files: readonly F[],
  clips: readonly ClipSource[],
  format: ExportFormat | undefined,
  transforms: Transforms | undefined,
  step: Omit<ProfileStep, 'format'> | undefined,
  engine: ExportTarget | undefined,
): Promise<Prepared<F>> {
  const model = new Set<string>(['fbx', 'glb']);
  const fbxClips = clips.filter((c) => c.format === 'fbx');
  const skipped = clips
    .filter((c) => c.format !== 'fbx')
    .map((c) => ({ name: c.name, why: 'its file is a GLB, and the other clips are FBX: one format per export' }));
  if (format === 'glb') return glbOfFbxClips(files, fbxClips, skipped, transforms, step);
  if (format === 'fbx' && engine && TARGETS[engine].fbxClips === 'model-and-at-clips' && transforms === undefined)
    return unityClipFiles(files, fbxClips, skipped, step);
  if (transforms !== undefined)
    throw new ExportError('bad-format', {
      file: 'FBX of the clips',
      why: 'is not written: FBX is not written with transforms for animated models: the clips are FBX files as the service made them, and baking scale, pivot or up axis into them would need their rig rewritten (export the GLB, or the FBX without transforms: the engine importers scale and turn FBX themselves)',
      fix: 'Choose GLB, or export without transforms',
    });
  if (format !== 'fbx')
    throw new ExportError('bad-format', {
      file: `${(format ?? 'no format').toUpperCase()} of the clips`,
      why: 'is not written: the clips are animated FBX files, which this format cannot hold',
      fix: 'Export FBX or GLB',
    });
  const names = new Set<string>();
  const paths = new Set<string>();
  const fbx: F[] = [];
  for (const c of fbxClips) {
    if (paths.has(c.path)) continue; // a file holding several chosen takes (the session's animation) is written once
    paths.add(c.path);
    let name = c.name || 'clip';
    for (let n = 2; names.has(name); n++) name = `${c.name || 'clip'} (${n})`;
    names.add(name);
    fbx.push({ kind: 'fbx', path: c.path, name: `${name}.fbx`, clip: name } as F);
  }
  return {
    files: [...files.filter((f) => !model.has(f.kind)), ...fbx],
    replaced: [],
    clips: { written: fbxClips.map((c) => c.name), skipped },
    note: `One FBX per clip (${fbx.length}), each the character with its take named after the clip, as the service delivers them`,
  };
}

/** One GLB of FBX clips: the character of the first, every clip's take on its bones (by name), named after the clip. */
async function glbOfFbxClips<F extends PreparedFile>(
  files: readonly F[],
  clips: readonly ClipSource[],
  skipped: { name: string; why: string }[],
  transforms: Transforms | undefined,
  step: Omit<ProfileStep, 'format'> | undefined,
): Promise<Prepared<F>> {
  const load = readFbxClip;
  const first = clips[0];
  if (first === undefined)
    throw new ExportError('nothing-to-export', {
      file: 'the clips',
      why: 'none is chosen',
      fix: 'Choose at least one clip',
    });
  const base = (await load(first.path)).model;
  const { takes, written } = await gatherTakes(base, clips, skipped);
  let bytes: Uint8Array = writeSkinnedGlb({ ...base, name: first.name || 'character', takes }, CREATOR);
  let bbox: Bounds | undefined;
  if (transforms !== undefined) {
    const t = await transformGlb(bytes, transforms, first.path);
    bytes = t.glb;
    bbox = t.bbox;
  }
  const ready = step && (await gameReadyFiles(bytes, first.path, { ...step, format: 'glb' }));
  if (ready) bytes = ready.files[0]!.data;
  const glb = {
    kind: 'glb',
    path: first.path,
    name: 'model.glb',
    data: bytes,
    transformed: transforms !== undefined || ready !== undefined,
  } as F;
  return {
    files: [...files.filter((f) => f.kind !== 'fbx' && f.kind !== 'glb'), glb],
    replaced: [],
    ...(bbox && { bbox }),
    clips: { written, skipped },
    note: `One GLB with every clip (${written.length}), made from the service's FBX clips${ready ? `. ${ready.note}` : ''}`,
    ...(ready && { gameReady: ready.report }),
  };
}

/** The bytes of a source file. */
export async function readSource(f: PreparedFile): Promise<Uint8Array> {
  if (f.data !== undefined) return f.data;
  return readFile(f.path).catch((error: unknown) => {
    throw ioError(f.path, 'reading the source file', error);
  });
}
