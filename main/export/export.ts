// One call puts a result into a game project: detect the engine, pick and name the files, transform the GLB,
// write everything with a manifest into a staging folder, then move that folder into place in one rename.
import { createHash } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type * as z from 'zod';
import type { Bounds } from './bounds.ts';
import { detectProject, type Project } from './detect.ts';
import { ExportError } from './errors.ts';
import { buildManifest, exportSourceSchema, manifestFileName, type ExportSource } from './manifest.ts';
import { styleName, uniqueName } from './naming.ts';
import { assertPlainName, ensureFolderInside, entryKind } from './paths.ts';
import { defaultPivot, formatRefusal, type ExportClip } from '../../shared/export-options.ts';
import {
  chooseFormat,
  PRESETS,
  selectFiles,
  type ExportFormat,
  type ExportTarget,
  type FileKind,
  type Preset,
} from './presets.ts';
import { cleanStale, commitStaging, createStaging, writeDurable } from './staging.ts';
import {
  formatsOnOffer,
  keepForeignEntries,
  onlyUsedTextures,
  planNames,
  produce,
  sourceName,
} from './written-files.ts';
import type { ClipSource } from './clips.ts';
import { prepareFiles, type PreparedFile } from './prepare.ts';
import { hasTransforms, transformsSchema, type Transforms } from './transform.ts';
import { issuesToText, parseWith } from '../../shared/contract/issues.ts';
import type { TargetProfile } from '../../shared/target-profiles.ts';
import type { GameReadyReport } from '../gameready/gameready.ts';

export interface SourceFile extends PreparedFile {
  kind: FileKind;
  /** The file to copy, e.g. in the download cache. */
  path: string;
  /** Its name as the service gave it (e.g. `model.png`): used to name textures and to match OBJ/MTL references. */
  name?: string;
}

export interface ExportOptions {
  /** The project folder, or any folder inside it. */
  projectDir: string;
  /** Detected from projectDir when omitted (`folder` when it is no game project). */
  engine?: ExportTarget;
  name: string;
  files: SourceFile[];
  transforms?: Transforms;
  /**
   * With no pivot in `transforms`, the detected game engine's default pivot is applied (shared/export-options.ts
   * defaultPivot: the bottom centre for a static model with a GLB): the CLI's default.
   */
  pivotByDefault?: boolean | undefined;
  /** The one mesh format written (presets.ts chooseFormat); the engine's default when omitted. */
  format?: ExportFormat | undefined;
  /**
   * An animated model's clips (each a GLB or FBX of the same rig): GLB clips are gathered in the GLB written, FBX
   * clips are written one FBX per clip; all of them, or those `keepClips` names.
   */
  clips?: readonly ClipSource[] | undefined;
  /** Which of `clips` to keep, by output key, id or name (shared/export-options.ts exportClipsSchema); all when omitted. */
  keepClips?: readonly string[] | undefined;
  /**
   * A target profile (shared/target-profiles.ts resolveProfile: the built-in one with the user's edits): the model
   * is made game-ready (LOD0 within the budget, LODs written as the engine imports them, maps fitted) and, with no
   * pivot asked for, the engine's default pivot applied (unless `pivotByDefault` is false). Without it the asset
   * is written as it came.
   */
  profile?: TargetProfile | undefined;
  /** Replace an existing asset folder of the same name; without it that is an error. */
  overwrite?: boolean;
  source: ExportSource;
  /** Called after each file is written to the staging folder (awaited). */
  onProgress?: (p: { file: string; done: number; total: number }) => void | Promise<void>;
}

export interface WrittenFile {
  kind: FileKind;
  /** Final absolute path. */
  path: string;
  size: number;
  sha256: string;
  /** The source file it was made from. */
  from: string;
  transformed: boolean;
}

export interface ExportResult {
  engine: ExportTarget;
  projectRoot: string;
  targetDir: string;
  files: WrittenFile[];
  /** Given files the preset does not write, with the reason. */
  skipped: { kind: FileKind; path: string; why: string }[];
  manifestPath: string;
  /** The transformed GLB's box in metres; only when transforms were applied. */
  bbox?: Bounds;
  /** The animations the GLB holds (by name) and the clips that could not go in, when the model has clips. */
  clips?: { written: string[]; skipped: { name: string; why: string }[] };
  /** Why the format written is not the engine's default, or why the engine may not import it as it is (e.g. GLB in Unity without glTFast). */
  note?: string;
  /** With a profile: the LOD levels (triangles, error), the texture sizes and what was fixed. */
  gameReady?: GameReadyReport;
  /** Whether an existing folder was replaced. */
  replaced: boolean;
  /** Entries of the replaced folder kept in the new one (engine sidecars such as Unity's .meta files). */
  kept: string[];
}

/**
 * Exports an asset (see the module comment). Throws ExportError; on any failure, a crash included, the
 * target is as it was before: never half written, and an existing one replaced only with `overwrite`.
 */
export async function exportAsset(options: ExportOptions): Promise<ExportResult> {
  const { source, transforms: asked } = checkOptions(options);
  const { project, preset, assetName, transforms, note, prepared, chosen, skipped } = await decide(options, asked);

  // A plain folder that does not exist yet (a game project's root always exists: its markers were found).
  if (project.newFolder && project.engine === 'folder') await createNewFolder(project.root);
  const parent = await ensureFolderInside(project.root, assetParent(project, preset));
  await cleanStale(parent); // first: it may put back a folder that an interrupted replacement had moved aside
  const targetDir = join(parent, assetName);
  const existing = await entryKind(targetDir);
  await checkTarget(targetDir, existing, options.overwrite === true);

  const plan = planNames(chosen, preset, assetName);
  const staging = await createStaging(parent);
  try {
    const written: WrittenFile[] = [];
    const bbox = prepared.bbox;
    for (const item of plan) {
      const out = await produce(item, plan);
      await writeDurable(join(staging, item.name), out.data);
      written.push({
        kind: item.source.kind,
        path: join(targetDir, item.name),
        size: out.data.byteLength,
        sha256: createHash('sha256').update(out.data).digest('hex'),
        from: sourceName(item.source),
        transformed: out.transformed,
      });
      await options.onProgress?.({ file: item.name, done: written.length, total: plan.length });
    }
    const manifestName = manifestFileName(assetName);
    const manifest = buildManifest({
      name: assetName,
      engine: project.engine,
      source,
      files: written.map((f) => ({
        path: basename(f.path),
        kind: f.kind,
        size: f.size,
        sha256: f.sha256,
        from: f.from,
        transformed: f.transformed,
      })),
      ...(hasTransforms(transforms) && { transforms }),
      ...(bbox && { bbox }),
      ...(prepared.clips && { clips: prepared.clips.written }),
      ...(prepared.gameReady && { gameReady: prepared.gameReady }),
    });
    await writeDurable(join(staging, manifestName), `${JSON.stringify(manifest, null, 2)}\n`);
    const replaced = existing === 'dir';
    const kept = replaced
      ? await keepForeignEntries(targetDir, staging, new Set([manifestName, ...plan.map((p) => p.name)]))
      : [];
    await commitStaging(staging, targetDir, replaced);
    return {
      engine: project.engine,
      projectRoot: project.root,
      targetDir,
      files: written,
      skipped: skipped.map(({ file, why }) => ({ kind: file.kind, path: file.path, why })),
      manifestPath: join(targetDir, manifestName),
      ...(bbox && { bbox }),
      ...(prepared.clips && { clips: prepared.clips }),
      ...(note && { note }),
      ...(prepared.gameReady && { gameReady: prepared.gameReady }),
      replaced,
      kept,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export interface ExportPlan {
  engine: ExportTarget;
  projectRoot: string;
  /** The asset folder the export would write (it may exist: then only an export with overwrite replaces it). */
  targetDir: string;
  exists: boolean;
  /** The one mesh format written; null when the files hold no model. */
  format: ExportFormat | null;
  /** Why the format is not the engine's default, or why the engine may not import it as it is. */
  note?: string;
  /** The files written, by their names in the asset folder; `transformed`: made from the transformed model. */
  write: { name: string; kind: FileKind; from: string; transformed: boolean }[];
  /** The given files left out (or replaced by ones made from the transformed model), and why. */
  skip: { name: string; kind: FileKind; why: string }[];
  /** An animated model's clips: those it can keep (for a per-clip choice), those written, and those that cannot be. */
  clips?: { available: ExportClip[]; written: string[]; skipped: { name: string; why: string }[] };
  bbox?: Bounds;
  /** With a profile: the LODs with their triangles and error, the texture sizes, and what the export fixes. */
  gameReady?: GameReadyReport;
}

/**
 * What exportAsset would write for these options, and why other files are not written, writing nothing: the
 * same decisions (project, format, clips, transforms and conversions, textures, names), made in memory.
 * Throws the ExportError the export would throw for the same options (a refused format, unknown clips…).
 */
export async function planExport(options: Omit<ExportOptions, 'overwrite' | 'onProgress'>): Promise<ExportPlan> {
  const { transforms } = checkOptions(options);
  const { project, preset, assetName, format, note, prepared, chosen, skipped } = await decide(options, transforms);
  const targetDir = join(assetParent(project, preset), assetName);
  return {
    engine: project.engine,
    projectRoot: project.root,
    targetDir,
    exists: (await entryKind(targetDir)) !== 'none',
    format: format ?? null,
    ...(note && { note }),
    write: planNames(chosen, preset, assetName).map((p) => ({
      name: p.name,
      kind: p.source.kind,
      from: sourceName(p.source),
      transformed: p.source.transformed === true,
    })),
    skip: skipped.map(({ file, why }) => ({ name: sourceName(file), kind: file.kind, why })),
    ...(options.clips &&
      options.clips.length > 0 && {
        clips: {
          available: options.clips.map(({ id, name, source }) => ({ id, name, source })),
          written: prepared.clips?.written ?? [],
          skipped: prepared.clips?.skipped ?? [],
        },
      }),
    ...(prepared.bbox && { bbox: prepared.bbox }),
    ...(prepared.gameReady && { gameReady: prepared.gameReady }),
  };
}

/**
 * The decisions of an export, before anything is written: the project, the transforms (with the engine's
 * default pivot when asked for), the format, the files made and chosen.
 */
async function decide(options: Omit<ExportOptions, 'overwrite' | 'onProgress'>, asked: Transforms | undefined) {
  const project = await detectProject(options.projectDir, options.engine);
  const { profile } = options;
  const transforms =
    options.pivotByDefault === true || (profile !== undefined && options.pivotByDefault !== false)
      ? withDefaultPivot(asked, project.engine, options)
      : asked;
  // A profile remakes the model from its GLB, as transforms do.
  const remade = hasTransforms(transforms) || profile !== undefined;
  const preset = PRESETS[project.engine];
  const assetName = styleName(options.name, preset.style);
  // FBX clips (the service's) are written as FBX, or made into one GLB: both are on offer.
  const fbxClips: SourceFile[] = (options.clips ?? [])
    .filter((c) => c.format === 'fbx')
    .map((c) => ({ kind: 'fbx', path: c.path }));
  const offered = formatsOnOffer(options.files, remade);
  // GLB clips without transforms can be written as one FBX with a take per clip, too.
  const glbClips = !hasTransforms(transforms) && (options.clips ?? []).some((c) => c.format !== 'fbx');
  const choice = chooseFormat(
    project,
    fbxClips.length > 0
      ? [...new Set<FileKind>([...offered, 'fbx', 'glb'])]
      : glbClips && offered.includes('glb')
        ? [...new Set<FileKind>([...offered, 'fbx'])]
        : offered,
    options.format,
  );
  let format = choice.format;
  let note = choice.note;
  const glb = options.files.find((f) => f.kind === 'glb');
  const reads = selectFiles(preset, options.files, false, format).chosen;
  await checkSources(
    fbxClips.length > 0
      ? [
          ...new Set([
            ...fbxClips.map((c) => ({
              ...c,
              kind: format === 'glb' || remade ? ('glb' as const) : c.kind,
            })),
            ...reads,
          ]),
        ]
      : glb && (remade || options.clips?.length)
        ? [...new Set([glb, ...reads])]
        : reads,
    preset,
    hasTransforms(transforms) ? 'the transforms' : profile !== undefined ? 'the profile' : undefined,
  );
  const gameReady = profile && { profile, engine: project.engine, assetName };
  const prepare = (f: ExportFormat | undefined) =>
    prepareFiles(options.files, {
      transforms,
      format: f,
      clips: options.clips,
      keepClips: options.keepClips,
      engine: project.engine,
      gameReady,
    });
  const refusals: { file: SourceFile; why: string }[] = [];
  const prepared = await prepare(format).catch(async (error: unknown) => {
    // A format the engine picked (not the user) that cannot be made from the transformed model: the GLB instead, when the engine imports it.
    if (
      !(error instanceof ExportError && error.code === 'bad-format') ||
      options.format !== undefined ||
      (!glb && fbxClips.length === 0) ||
      formatRefusal(project, 'glb') !== undefined
    )
      throw error;
    const model = glb ?? fbxClips[0]!;
    refusals.push({ file: { ...model, kind: format as FileKind }, why: error.why.replace(/^is not written: /, '') });
    note = `${PRESETS[project.engine].label} gets GLB: ${error.why.replace(/^is not written: /, '')}`;
    format = 'glb';
    return prepare(format);
  });
  if (prepared.note !== undefined) note = note === undefined ? prepared.note : `${note}. ${prepared.note}`;
  const selection = selectFiles(preset, prepared.files, false, format);
  const { chosen, skipped } = await onlyUsedTextures(selection.chosen, [
    ...refusals,
    ...prepared.replaced,
    ...selection.skipped,
  ]);
  return { project, preset, assetName, transforms, format, note, prepared, chosen, skipped };
}

/** The transforms with the target's default pivot added, when none was chosen (shared/export-options.ts defaultPivot). */
function withDefaultPivot(
  transforms: Transforms | undefined,
  engine: ExportTarget,
  options: Pick<ExportOptions, 'files' | 'clips'>,
): Transforms | undefined {
  if (transforms?.pivot !== undefined) return transforms;
  const pivot = defaultPivot(engine, {
    animated: (options.clips?.length ?? 0) > 0,
    glb: options.files.some((f) => f.kind === 'glb'),
  });
  return pivot === undefined ? transforms : { ...transforms, pivot };
}

function checkOptions(o: Omit<ExportOptions, 'overwrite' | 'onProgress'>): {
  source: ExportSource;
  transforms?: Transforms;
} {
  assertPlainName(o.name);
  if (o.files.length === 0) {
    throw new ExportError('nothing-to-export', {
      file: `asset "${o.name}"`,
      why: 'has no files',
      fix: 'Pass the downloaded files of the result',
    });
  }
  const source = parsedInput(
    exportSourceSchema,
    o.source,
    'source',
    'Pass the session id and resource kind of the result',
  );
  if (o.transforms === undefined) return { source };
  return {
    source,
    transforms: parsedInput(transformsSchema, o.transforms, 'transforms', 'Fix these values and export again'),
  };
}

/** The value as the schema reads it, else ExportError `bad-input` naming the field and what is wrong with it. */
function parsedInput<S extends z.ZodType>(schema: S, value: unknown, file: string, fix: string): z.output<S> {
  const parsed = parseWith(schema, value);
  if (!parsed.ok) throw new ExportError('bad-input', { file, why: issuesToText(parsed.issues), fix });
  return parsed.value;
}

async function checkSources(
  chosen: SourceFile[],
  preset: Preset,
  remade: 'the transforms' | 'the profile' | undefined,
): Promise<void> {
  const takes = [...preset.meshes, ...preset.fallbackMeshes, ...preset.extras].join(', ');
  const why = remade
    ? !chosen.some((f) => f.kind === 'glb') &&
      `has no GLB, and ${remade} need${remade === 'the transforms' ? '' : 's'} one`
    : !chosen.some((f) => f.kind !== 'mtl') && `has none of the formats it takes (${takes})`;
  if (why) {
    const fix = 'Download the GLB of the result first, or choose another engine';
    throw new ExportError('nothing-to-export', { file: `${preset.label} export`, why, fix });
  }
  for (const f of chosen) {
    if (f.data !== undefined) continue;
    const s = await stat(f.path).catch(() => undefined);
    if (!s?.isFile())
      throw new ExportError('source-missing', { file: f.path, why: 'is not there', fix: 'Download the result again' });
  }
}

/** The folder the asset folder goes in: the one the user picked when it is inside the engine's content folder. */
/**
 * Creates a folder that does not exist yet, folder by folder below the nearest one that exists. Not with a
 * recursive mkdir: under /proc that fails with ENOENT, retries the parent, and never ends.
 */
async function createNewFolder(dir: string): Promise<void> {
  let base = dirname(dir);
  while ((await entryKind(base)) === 'none' && dirname(base) !== base) base = dirname(base);
  await ensureFolderInside(base, dir);
}

function assetParent(project: Project, preset: Preset): string {
  const rel = relative(join(project.root, ...preset.contentDir), project.dir);
  const picked = rel !== '' && !rel.split(sep).some((part) => part === '..' || part.startsWith('.'));
  return picked ? project.dir : join(project.root, ...preset.baseDir);
}

async function checkTarget(
  target: string,
  kind: Awaited<ReturnType<typeof entryKind>>,
  overwrite: boolean,
): Promise<void> {
  if (kind === 'none') return;
  if (kind === 'link') {
    throw new ExportError('outside-project', {
      file: target,
      why: 'is a link; the export replaces folders, never what a link points to',
      fix: 'Export under another name, or replace the link by a folder',
    });
  }
  if (kind === 'other')
    throw new ExportError('target-exists', { file: target, why: 'is a file', fix: 'Export under another name' });
  if (overwrite) return;
  const names = new Set((await readdir(dirname(target))).map((n) => n.toLowerCase()));
  const free = uniqueName(basename(target), (s) => names.has(s.toLowerCase()));
  const fix = `Export with overwrite to replace it, or under another name (e.g. ${free})`;
  throw new ExportError('target-exists', { file: target, why: 'already exists', fix });
}
