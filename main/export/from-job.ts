// The files of a finished job that an export can use, taken from the download cache (no network):
// each cached output (shared/output-kind.ts) mapped to the export's file kind.
import { formatOutputKind, parseOutputKind, type MeshFileFormat, type MeshStage } from '../../shared/output-kind.ts';
import { fetchJobOutputs } from '../cache/auto-download.ts';
import type { DownloadCache } from '../cache/download-cache.ts';
import type { OutputFormat } from '../cache/outputs.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import { ExportError } from './errors.ts';
import { exportAsset, type ExportResult, type SourceFile } from './export.ts';
import type { ExportFormat, ExportTarget, FileKind } from './presets.ts';
import type { Transforms } from './transform.ts';

/** The export kind of a cached output, or undefined when an export does not write it. */
function exportKindOf(key: string): FileKind | undefined {
  const kind = parseOutputKind(key);
  switch (kind?.type) {
    case 'mesh':
      if (kind.format === 'usdz') return 'usdz';
      if (kind.format === 'glb') return 'glb';
      if (kind.stage !== 'final') return kind.stage === 'preview' && kind.format === 'zip' ? 'zip' : undefined;
      return kind.format;
    case 'input-mesh':
    case 'animation':
      return 'glb';
    case 'clip':
      // A prompt's result (GLB and USDZ); the library's clips are the service's own, not the asset.
      return kind.format === 'usdz' ? 'usdz' : kind.source === 'prompt' ? 'glb' : undefined;
    case 'retopology':
      return kind.file === 'obj' ? 'obj' : 'texture';
    case 'image':
    case 'render':
      return 'texture';
    default:
      return undefined; // the video, spin views, thumbnail, and keys this version does not know
  }
}

const mesh = (stage: MeshStage, format: MeshFileFormat) => formatOutputKind({ type: 'mesh', stage, format });
const PREFERRED: Readonly<Record<'preview' | 'refine' | 'other', readonly string[]>> = {
  preview: [mesh('preview', 'glb'), mesh('preview', 'usdz'), mesh('preview', 'zip')],
  refine: [mesh('polished', 'glb'), mesh('final', 'glb'), mesh('polished', 'usdz'), mesh('final', 'usdz')],
  other: [mesh('final', 'glb'), mesh('final', 'usdz')],
};

/** Cached outputs tried first: the final mesh, except that the older flow's preview job exports its preview. */
function preferred(step: JobRecord['step']): readonly string[] {
  return PREFERRED[step === 'preview' || step === 'refine' ? step : 'other'];
}

/** Every cached output of the job's session that an export can write; at most one file per export kind. */
export function exportSourcesOf(job: Pick<JobRecord, 'remoteId' | 'step'>, cache: DownloadCache): SourceFile[] {
  if (job.remoteId === null) return [];
  const first = preferred(job.step);
  const rank = (kind: string) => (first.includes(kind) ? first.indexOf(kind) : first.length);
  const entries = cache
    .list()
    .filter((e) => e.sessionId === job.remoteId && e.state === 'complete')
    .sort((a, b) => rank(a.kind) - rank(b.kind)); // stable: otherwise in the cache's order
  const seen = new Set<FileKind>();
  const files: SourceFile[] = [];
  for (const entry of entries) {
    const kind = exportKindOf(entry.kind);
    if (kind === undefined || seen.has(kind)) continue;
    const path = cache.open(entry.sessionId, entry.kind);
    if (path === undefined) continue;
    seen.add(kind);
    files.push({ kind, path, ...(kind === 'texture' && { name: 'texture.png' }) });
  }
  return files;
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
  /** Default: the job's label without its command word and file extension. */
  name?: string | undefined;
  transforms?: Transforms | undefined;
  overwrite?: boolean | undefined;
  /** The one mesh format written; the engine's default when omitted (presets.ts chooseFormat). */
  format?: ExportFormat | undefined;
}

/** Exports a finished job's outputs from the cache (downloading them first if they are missing). */
export async function exportJob(deps: JobExportDeps, job: JobRecord, options: JobExportOptions): Promise<ExportResult> {
  if (job.state !== 'succeeded' || job.remoteId === null) {
    throw new ExportError('nothing-to-export', { file: job.label, why: `it is ${job.rawStatus || job.state}, not finished`, fix: 'Wait until the job has succeeded, then export it' });
  }
  let files = exportSourcesOf(job, deps.cache);
  if (files.length === 0) {
    await fetchJobOutputs(deps.cache, deps.store, job, () => deps.refresh(job.id), deps.formats);
    files = exportSourcesOf(job, deps.cache);
  }
  if (files.length === 0) {
    throw new ExportError('nothing-to-export', { file: job.label, why: 'none of its outputs is in the local cache', fix: 'Download its outputs first (check your connection), then export again' });
  }
  return exportAsset({
    projectDir: options.projectDir,
    ...(options.engine && { engine: options.engine }),
    name: options.name ?? defaultExportName(job.label),
    files,
    ...(options.transforms && { transforms: options.transforms }),
    overwrite: options.overwrite ?? false,
    ...(options.format && { format: options.format }),
    source: {
      sessionId: job.remoteId,
      jobId: job.id,
      kind: job.kind,
      request: job.operationId ? deps.store.journal.get(job.operationId)?.body : undefined,
      result: job.result,
    },
  });
}

/** `create-3d chair.png` → `chair`. */
function defaultExportName(label: string): string {
  return label.replace(/^[a-z0-9-]+ /, '').replace(/\.[a-z0-9]+$/i, '') || 'asset';
}
