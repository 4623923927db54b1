// The files of a finished job that an export can use, taken from the download cache (no network):
// each cached output (shared/output-kind.ts) mapped to the export's file kind. An animation job's clips
// (the library's and every prompt's, each a GLB or FBX of the same rig: the service's are FBX) are gathered into
// its one GLB (clips.ts), or written one FBX per clip;
// a retopology's OBJ comes with the MTL and textures the cache keeps beside it (cache/obj-companions.ts).
import type { TargetProfile } from '../../shared/target-profiles.ts';
import { jobDef } from '../../shared/kinds/index.ts';
import { modelRank } from '../../shared/kinds/job-model.ts';
import { fileNameOf } from '../../shared/url-name.ts';
import { formatOutputKind, parseOutputKind, type ClipNames, type OutputKind } from '../../shared/output-kind.ts';
import { fetchJobOutputs } from '../cache/auto-download.ts';
import type { DownloadCache } from '../cache/download-cache.ts';
import type { OutputFormat } from '../cache/outputs.ts';
import type { FileFormat } from '../../shared/file-format.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { ClipSource } from './clips.ts';
import { ExportError } from './errors.ts';
import {
  exportAsset,
  planExport,
  type ExportOptions,
  type ExportPlan,
  type ExportResult,
  type SourceFile,
} from './export.ts';
import type { ExportFormat, ExportTarget, FileKind } from './presets.ts';
import type { Transforms } from './transform.ts';

/**
 * The export kind of a cached output, or undefined when an export does not write it. Pictures that no
 * material uses are not textures: the animation's joint render, the retopology's preview picture.
 */
function exportKindOf(kind: OutputKind | undefined, format: () => FileFormat | undefined): FileKind | undefined {
  switch (kind?.type) {
    case 'mesh':
      if (kind.format === 'usdz') return 'usdz';
      if (kind.format === 'glb') return 'glb';
      if (kind.stage !== 'final') return kind.stage === 'preview' && kind.format === 'zip' ? 'zip' : undefined;
      return kind.format;
    case 'animation':
      return animatedKind(format());
    case 'clip':
      // The model of an animation job when the session's own is not cached; its clips are gathered apart.
      return kind.format === 'usdz' ? (kind.source === 'prompt' ? 'usdz' : undefined) : animatedKind(format());
    case 'retopology':
      return kind.file === 'obj' ? 'obj' : undefined;
    case 'obj-file':
      return kind.name.toLowerCase().endsWith('.mtl') ? 'mtl' : 'texture';
    case 'image':
      return 'texture'; // a text-to-image job's picture: the result itself
    default:
      return undefined; // the uploaded mesh, the render, the video, spin views, thumbnail, and keys this version does not know
  }
}

/** An animated model is written in the format its file is (file-format.ts: its bytes, then its URL): FBX from the service. */
function animatedKind(format: FileFormat | undefined): FileKind | undefined {
  return format === 'glb' || format === 'fbx' ? format : undefined;
}

/**
 * Every cached output of the job's session that an export can write: at most one file per export kind,
 * except the MTL and textures that go with the OBJ taken (all of them, named as the OBJ names them).
 */
export function exportSourcesOf(job: Pick<JobRecord, 'remoteId' | 'step'>, cache: DownloadCache): SourceFile[] {
  if (job.remoteId === null) return [];
  // The job's model first (shared/kinds/job-model.ts: the refined mesh, the final one, the preview; the older
  // flow's preview step its preview), so each export kind takes the best of its files; the other files after.
  const rank = (key: string) =>
    modelRank(parseOutputKind(key), { step: job.step, animated: 'glb' }) ?? Number.MAX_SAFE_INTEGER;
  const entries = cache
    .list()
    .filter((e) => e.sessionId === job.remoteId && e.state === 'complete')
    // Then by key: the cache lists the most recently used first, and reading a file is a use.
    .sort((a, b) => rank(a.kind) - rank(b.kind) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  const seen = new Set<FileKind>();
  const files: SourceFile[] = [];
  let objKey: string | undefined;
  const companions: { of: string; file: SourceFile }[] = [];
  for (const entry of entries) {
    const parsed = parseOutputKind(entry.kind);
    const kind = exportKindOf(parsed, () => cache.formatOf(entry));
    if (kind === undefined) continue;
    const path = cache.open(entry.sessionId, entry.kind);
    if (path === undefined) continue;
    if (parsed?.type === 'obj-file') {
      companions.push({ of: parsed.of, file: { kind, path, name: parsed.name } });
      continue;
    }
    if (seen.has(kind)) continue;
    seen.add(kind);
    if (kind === 'obj') objKey = entry.kind;
    // Named as the service names its files (the cache's blobs have none): what the plan and the manifest show.
    files.push({ kind, path, name: kind === 'texture' ? 'texture.png' : `model.${kind}` });
  }
  // The OBJ taken comes with the MTL and textures kept beside it (named as it names them).
  for (const c of companions) if (c.of === objKey) files.push(c.file);
  return files;
}

/** The clip names the jobs' results know (a session's job was read before its prompts were added; a prompt job after). */
function mergedNames(jobs: readonly Pick<JobRecord, 'kind' | 'result'>[]): ClipNames | undefined {
  const all = jobs.flatMap((j) => jobDef(j.kind)?.clipNames?.(j.result) ?? []);
  if (all.length === 0) return undefined;
  return { library: new Map(all.flatMap((n) => [...n.library])), prompt: new Map(all.flatMap((n) => [...n.prompt])) };
}

/**
 * The clips an export of an animation job can gather into its GLB, in the session's order: each library
 * clip and each prompt's result, named by the library's label or the prompt's text. A library clip whose own
 * GLB is not cached is taken from the session's animated GLB (which holds every library clip by its label).
 */
export function clipSourcesOf(
  job: Pick<JobRecord, 'remoteId' | 'kind' | 'result'>,
  cache: DownloadCache,
  sameSession: readonly Pick<JobRecord, 'kind' | 'result'>[] = [],
): ClipSource[] {
  if (job.remoteId === null) return [];
  const names = mergedNames([job, ...sameSession]);
  if (names === undefined) return [];
  const cached = new Map<string, { path: string; format: 'glb' | 'fbx' }>();
  for (const e of cache.list()) {
    if (e.sessionId !== job.remoteId || e.state !== 'complete') continue;
    const format = animatedKind(cache.formatOf(e));
    if (format !== 'glb' && format !== 'fbx') continue;
    const path = cache.open(e.sessionId, e.kind);
    if (path !== undefined) cached.set(e.kind, { path, format });
  }
  const animation = cached.get(formatOutputKind({ type: 'animation' }));
  const out: ClipSource[] = [];
  for (const source of ['library', 'prompt'] as const) {
    for (const [id, label] of names[source]) {
      const key = formatOutputKind({ type: 'clip', source, id, format: 'model' });
      const file = cached.get(key);
      const name = label || id;
      if (file !== undefined) out.push({ id: key, name, source, ...file });
      else if (source === 'library' && animation !== undefined)
        out.push({ id: key, name, source, ...animation, animation: label });
    }
  }
  return out;
}

export interface JobExportDeps {
  cache: DownloadCache;
  store: Store;
  /** Re-reads a job (fresh signed URLs), when its outputs must be downloaded first. */
  refresh: (jobId: string) => Promise<JobRecord>;
  formats?: readonly OutputFormat[];
}

export interface JobExportOptions {
  projectDir: string;
  engine?: ExportTarget | undefined;
  /** Default: the library entry's name (exportNameOf). */
  name?: string | undefined;
  transforms?: Transforms | undefined;
  overwrite?: boolean | undefined;
  /** The one mesh format written; the engine's default when omitted (presets.ts chooseFormat). */
  format?: ExportFormat | undefined;
  /**
   * An animation job's clips to keep, by output key, id or name (clipSourcesOf); `library` names every library
   * clip, `all` every clip. Omitted: the user's prompts (every clip when the job has none), in the UI as in the CLI.
   */
  clips?: readonly string[] | undefined;
  /**
   * With no pivot asked for, a game engine's default pivot is written (shared/export-options.ts defaultPivot:
   * the bottom centre for a static model with a GLB): the CLI's default. The app's panel sends its own choice.
   */
  pivotByDefault?: boolean | undefined;
  /** A target profile, resolved (shared/target-profiles.ts resolveProfile): export.ts ExportOptions.profile. */
  profile?: TargetProfile | undefined;
}

/** Exports a finished job's outputs from the cache (downloading them first if they are missing). */
export async function exportJob(deps: JobExportDeps, job: JobRecord, options: JobExportOptions): Promise<ExportResult> {
  let files = finishedJobSources(job, deps.cache);
  if (files.length === 0) {
    await fetchJobOutputs(deps.cache, deps.store, job, () => deps.refresh(job.id), deps.formats);
    files = exportSourcesOf(job, deps.cache);
  }
  if (files.length === 0) {
    throw new ExportError('nothing-to-export', {
      file: job.label,
      why: 'none of its outputs is in the local cache',
      fix: 'Download its outputs first (check your connection), then export again',
    });
  }
  return exportAsset({ ...assetOptions(deps, job, options, files), overwrite: options.overwrite ?? false });
}

/**
 * What exportJob would write, and why the other files are not written, from the job's cached files, writing
 * nothing (export.ts planExport: the same decisions). A job whose files are not cached has nothing to plan:
 * ExportError `nothing-to-export` (exportJob downloads them first).
 */
export async function planJob(
  deps: Pick<JobExportDeps, 'cache' | 'store'>,
  job: JobRecord,
  options: Omit<JobExportOptions, 'overwrite'>,
): Promise<ExportPlan> {
  const files = finishedJobSources(job, deps.cache);
  if (files.length === 0) {
    throw new ExportError('nothing-to-export', {
      file: job.label,
      why: 'none of its outputs is in the local cache yet',
      fix: 'Export it to download them first, or wait for the download',
    });
  }
  return planExport(assetOptions(deps, job, options, files));
}

/** The cached files of a job that has succeeded (exportSourcesOf); ExportError `nothing-to-export` for any other job. */
function finishedJobSources(job: JobRecord, cache: DownloadCache): SourceFile[] {
  if (job.state !== 'succeeded' || job.remoteId === null) {
    throw new ExportError('nothing-to-export', {
      file: job.label,
      why: `it is ${job.rawStatus || job.state}, not finished`,
      fix: 'Wait until the job has succeeded, then export it',
    });
  }
  return exportSourcesOf(job, cache);
}

function assetOptions(
  deps: Pick<JobExportDeps, 'cache' | 'store'>,
  job: JobRecord,
  options: Omit<JobExportOptions, 'overwrite'>,
  files: SourceFile[],
): Omit<ExportOptions, 'overwrite' | 'onProgress'> {
  const remoteId = job.remoteId!;
  const sameSession = (['animation_session', 'animation_prompt'] as const).flatMap(
    (kind) => deps.store.jobs.findByRemoteId(remoteId, kind) ?? [],
  );
  const clips = clipSourcesOf(job, deps.cache, sameSession);
  return {
    projectDir: options.projectDir,
    ...(options.engine && { engine: options.engine }),
    name: options.name ?? exportNameOf(deps.store, job),
    files,
    ...(options.transforms && { transforms: options.transforms }),
    ...(options.pivotByDefault && { pivotByDefault: true }),
    ...(options.format && { format: options.format }),
    ...(options.profile && { profile: options.profile }),
    ...(clips.length > 0 && { clips, keepClips: options.clips ?? defaultClips(clips) }),
    source: {
      sessionId: remoteId,
      jobId: job.id,
      kind: job.kind,
      request: job.operationId ? deps.store.journal.get(job.operationId)?.body : undefined,
      result: job.result,
    },
  };
}

/** The clips exported when none are named: the user's prompts, in the UI as in the CLI; every clip of a job without prompts. */
export function defaultClips(clips: readonly ClipSource[]): string[] {
  const prompts = clips.filter((c) => c.source === 'prompt');
  return (prompts.length > 0 ? prompts : clips).map((c) => c.id);
}

/**
 * The name an export takes when none is given: its library entry's, so the folder is named as the library
 * shows it. The name the user gave it, else its label made a name (defaultExportName). A text-animation
 * job is one entry with the upload of its session (the character): named after it (`Male_Casual`), never
 * after its prompts.
 */
function exportNameOf(store: Pick<Store, 'jobs'>, job: JobRecord): string {
  const entry =
    (job.kind === 'animation_prompt' &&
      job.remoteId !== null &&
      store.jobs.findByRemoteId(job.remoteId, 'animation_session')) ||
    job;
  return entry.name ?? defaultExportName(entry.label);
}

/**
 * The command word the CLI puts before a job's label (main/cli/endpoint-command.ts labelOf, the creating
 * commands of main/cli/command-table.ts). Only these: a label of the app's own ("hero to animate", a prompt
 * "red barrel") keeps its first word.
 */
const CLI_COMMAND_WORD =
  /^(create-3d|create-3d-legacy|spin|preview|refine|text-to-image|style|upload|animate-text|retopology) /;

/** `create-3d chair.png` → `chair`; `retopology https://…/mesh.glb?sp=r&sig=…` → `mesh`. */
export function defaultExportName(label: string): string {
  const rest = label.replace(CLI_COMMAND_WORD, '');
  // A name comes from a URL's path only; a label an older version made from a signed URL may still end in
  // its query string (`mesh.glb?sp=r&st=…`), which is no part of the name either.
  const name = /^[a-z][a-z0-9+.-]*:\/\//i.test(rest) ? fileNameOf(rest) : rest.replace(/\?[^\s?]*=\S*$/, '');
  return name.replace(/\.[a-z0-9]+$/i, '') || 'asset';
}
