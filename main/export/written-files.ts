// The files of an export by name and content: how each written file is named (planNames), its bytes (produce: an
// OBJ's and MTL's references follow renames), the formats on offer, the textures actually used, and what a replaced
// asset folder keeps (keepForeignEntries). Used by export.ts.
import { readdir } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { mtlTextures } from '../cache/obj-companions.ts';
import { ioError } from './errors.ts';
import type { SourceFile } from './export.ts';
import { MANIFEST_SUFFIX, readManifest } from './manifest.ts';
import { styleName, uniqueName } from './naming.ts';
import { readSource } from './prepare.ts';
import { fileName, type FileKind, type Preset } from './presets.ts';
import { rewriteReferences } from './references.ts';
import { copyEntries } from './staging.ts';

export interface Planned {
  source: SourceFile;
  name: string;
}

/**
 * Meshes are named after the asset (`Chair.glb`), textures after the asset and their own name
 * (`Chair_Albedo.png`), and OBJ/MTL references follow. An FBX names its textures inside, in a binary
 * that is copied as it is, so beside an FBX textures keep their own (safe) names.
 */
export function planNames(chosen: SourceFile[], preset: Preset, asset: string): Planned[] {
  const taken = new Set<string>();
  const withFbx = chosen.some((f) => f.kind === 'fbx');
  return chosen.map((source) => {
    const ext = extensionOf(source);
    const stem = basename(sourceName(source), extname(sourceName(source)));
    const name =
      source.clip !== undefined && source.clipFile === 'at'
        ? uniqueName(`${asset}@${styleName(source.clip, preset.style)}`, (n) => taken.has(`${n}${ext}`.toLowerCase())) +
          ext
        : source.clip !== undefined
          ? fileName(preset, asset, ext, taken, source.clip)
          : source.kind !== 'texture'
            ? fileName(preset, asset, ext, taken)
            : withFbx
              ? fileName(preset, styleName(stem, 'keep'), ext, taken)
              : fileName(preset, asset, ext, taken, stem);
    taken.add(name.toLowerCase());
    return { source, name };
  });
}

const EXTENSIONS: Record<Exclude<FileKind, 'texture'>, string> = {
  glb: '.glb',
  fbx: '.fbx',
  obj: '.obj',
  mtl: '.mtl',
  usdz: '.usdz',
  zip: '.zip',
  mp4: '.mp4',
};

function extensionOf(f: SourceFile): string {
  if (f.kind !== 'texture') return EXTENSIONS[f.kind];
  const ext = extname(sourceName(f)).toLowerCase();
  return ext !== '' ? ext : '.png';
}

export const sourceName = (f: SourceFile) => f.name ?? basename(f.path);

export async function produce(item: Planned, plan: Planned[]): Promise<{ data: Uint8Array; transformed: boolean }> {
  const { source } = item;
  const bytes = await readSource(source);
  const transformed = source.transformed === true;
  if (source.kind === 'obj' || source.kind === 'mtl') {
    const renames = new Map(plan.map((p) => [sourceName(p.source).toLowerCase(), p.name]));
    // An OBJ never names a material library that is not written beside it.
    const text = rewriteReferences(source.kind, Buffer.from(bytes).toString('utf8'), renames, source.kind === 'obj');
    return { data: Buffer.from(text), transformed };
  }
  return { data: bytes, transformed };
}

/** The formats an export can write from these files: with transforms, the FBX and OBJ are made from the GLB. */
export function formatsOnOffer(files: readonly SourceFile[], remade: boolean): FileKind[] {
  const kinds = files.map((f) => f.kind);
  return remade && kinds.includes('glb') ? [...new Set<FileKind>([...kinds, 'fbx', 'obj'])] : kinds;
}

/**
 * Textures are written only when a material uses them: beside an OBJ, those its MTL names (a GLB and an FBX
 * carry theirs inside). A picture that is the whole result (a generated image, no model) is written as it is.
 */
export async function onlyUsedTextures(
  chosen: SourceFile[],
  skipped: { file: SourceFile; why: string }[],
): Promise<{ chosen: SourceFile[]; skipped: { file: SourceFile; why: string }[] }> {
  if (!chosen.some((f) => f.kind === 'glb' || f.kind === 'fbx' || f.kind === 'obj' || f.kind === 'usdz'))
    return { chosen, skipped };
  const named = new Set<string>();
  for (const mtl of chosen.filter((f) => f.kind === 'mtl'))
    for (const t of mtlTextures(Buffer.from(await readSource(mtl)).toString('utf8'))) named.add(t.toLowerCase());
  const used = (f: SourceFile) =>
    f.kind !== 'texture' || f.companion === true || named.has(sourceName(f).toLowerCase());
  return {
    chosen: chosen.filter(used),
    skipped: [
      ...skipped,
      ...chosen
        .filter((f) => !used(f))
        .map((file) => ({ file, why: 'no material of the model uses it (a GLB or FBX carries its textures inside)' })),
    ],
  };
}

/**
 * Entries of the folder being replaced that this export does not write and that the previous export did
 * not write either (per its manifest) are carried into the new folder: Unity's .meta files (asset GUIDs
 * that scenes refer to), Godot's .import files, Unreal's .uasset files, anything the user added.
 */
export async function keepForeignEntries(oldDir: string, staging: string, written: Set<string>): Promise<string[]> {
  try {
    const entries = await readdir(oldDir);
    const manifests = entries.filter((n) => n.toLowerCase().endsWith(MANIFEST_SUFFIX));
    const previous: string[] = [];
    for (const m of manifests) {
      // An unreadable manifest lists nothing: its files are then kept rather than lost.
      const manifest = await readManifest(join(oldDir, m)).catch(() => undefined);
      previous.push(...(manifest?.files.map((f) => f.path) ?? []));
    }
    const skip = new Set([...written, ...previous, ...manifests].map((n) => n.toLowerCase()));
    return await copyEntries(oldDir, staging, (name) => !skip.has(name.toLowerCase()));
  } catch (error) {
    throw ioError(oldDir, 'copying the files to keep from the folder being replaced', error);
  }
}
