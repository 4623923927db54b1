// What an export writes, made in memory before anything is named or staged: the GLB with the chosen
// animation clips (clips.ts), transformed (transform.ts), and with transforms the FBX or OBJ made from that
// transformed model (convert.ts) in place of the untransformed ones, so that every format written is the
// same model. Files that need no change are read from where they are.
import { readFile } from 'node:fs/promises';
import type { ExportFormat } from '../../shared/export-options.ts';
import type { Bounds } from './bounds.ts';
import { chooseClips, mergeClips, type ClipSource } from './clips.ts';
import { convertGlb } from './convert.ts';
import { ExportError, ioError } from './errors.ts';
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
}

export interface PrepareOptions {
  transforms?: Transforms | undefined;
  /** The mesh format the export writes: with transforms, an FBX or OBJ is made from the transformed GLB. */
  format?: ExportFormat | undefined;
  /** The clips the GLB gathers (an animation job's); `keepClips` chooses among them (all when undefined). */
  clips?: readonly ClipSource[] | undefined;
  keepClips?: readonly string[] | undefined;
}

export interface Prepared<F extends PreparedFile> {
  files: F[];
  /** Given files replaced by ones made from the transformed model, with why. */
  replaced: { file: F; why: string }[];
  bbox?: Bounds;
  clips?: { written: string[]; skipped: { name: string; why: string }[] };
  /** How the clips are written, for the plan (one FBX per clip). */
  note?: string;
}

const MESH_OR_COMPANION: ReadonlySet<FileKind> = new Set(['fbx', 'obj', 'mtl', 'usdz', 'zip']);

export async function prepareFiles<F extends PreparedFile>(
  files: readonly F[],
  options: PrepareOptions,
): Promise<Prepared<F>> {
  const glb = files.find((f) => f.kind === 'glb');
  const clips =
    options.clips !== undefined && options.clips.length > 0 ? chooseClips(options.clips, options.keepClips) : undefined;
  const transforms = hasTransforms(options.transforms) ? options.transforms : undefined;
  if (clips?.some((c) => c.format === 'fbx')) return fbxClips(files, clips, options.format, transforms);
  if (glb === undefined || (clips === undefined && transforms === undefined))
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
  const made = { ...glb, data: bytes, transformed: transforms !== undefined } as F;
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

/**
 * The clips of an animation whose files are FBX (the service's: each the character, its mesh, skin and bones,
 * with one take named after the prompt): written as they are, one FBX per clip, named after the clip. Unity and
 * Unreal import each as the model with its animation (Unity: one AnimationClip per file, all on the same
 * avatar). They are not converted: a GLB of them, or transforms, would need the rig rewritten.
 */
function fbxClips<F extends PreparedFile>(
  files: readonly F[],
  clips: readonly ClipSource[],
  format: ExportFormat | undefined,
  transforms: Transforms | undefined,
): Prepared<F> {
  if (transforms !== undefined)
    throw new ExportError('bad-format', {
      file: 'the transforms',
      why: 'is not written: the clips are FBX files, and baking scale, pivot or up axis into them would need their rig rewritten',
      fix: 'Export without transforms (the engine importer scales and turns FBX itself)',
    });
  if (format !== 'fbx')
    throw new ExportError('bad-format', {
      file: `${(format ?? 'no format').toUpperCase()} of the clips`,
      why: 'is not written: the clips are FBX files (as the service delivers them), and a GLB is not made from them here',
      fix: 'Export FBX (--format fbx): Unity and Unreal import it natively, Godot 4.3 and later too',
    });
  const model = new Set<string>(['fbx', 'glb']);
  const written = new Set<string>();
  const per = clips.map((c) => {
    let name = c.name || 'clip';
    for (let n = 2; written.has(name); n++) name = `${c.name || 'clip'} (${n})`;
    written.add(name);
    return { kind: 'fbx', path: c.path, name: `${name}.fbx`, clip: name } as F;
  });
  const skipped = clips
    .filter((c) => c.format !== 'fbx')
    .map((c) => ({ name: c.name, why: 'its file is a GLB, and the others are FBX: one format per export' }));
  const fbx = per.filter((_, i) => clips[i]!.format === 'fbx');
  return {
    files: [...files.filter((f) => !model.has(f.kind)), ...fbx],
    replaced: [],
    clips: { written: fbx.map((f) => f.clip!), skipped },
    note: `One FBX per clip (${fbx.length}), each the character with its one take named after the clip: the service delivers them so`,
  };
}

/** The bytes of a source file. */
export async function readSource(f: PreparedFile): Promise<Uint8Array> {
  if (f.data !== undefined) return f.data;
  return readFile(f.path).catch((error: unknown) => {
    throw ioError(f.path, 'reading the source file', error);
  });
}
