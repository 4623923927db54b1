// Export a job's cached outputs into a game project from the app: the export (main/export/from-job.ts),
// and the project and target it went to kept as the next export's default; and what an export would write,
// said before it is run (planJobExport).
import { basename, extname } from 'node:path';
import { detectProject } from '../export/detect.ts';
import type { ExportResult, SourceFile } from '../export/export.ts';
import { exportJob, exportSourcesOf, type JobExportOptions } from '../export/from-job.ts';
import { styleName } from '../export/naming.ts';
import { chooseFormat, fileName, PRESETS, selectFiles, type ExportFormat, type ExportTarget, type FileKind, type Preset } from '../export/presets.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { SettingsRepository } from '../store/settings-table.ts';
import type { Services } from './services.ts';

export async function exportAndRemember(services: Services, settings: SettingsRepository, job: JobRecord, request: JobExportOptions): Promise<ExportResult> {
  const { cache, store, tracker, outputFormats } = services;
  const result = await exportJob({ cache, store, refresh: (id) => tracker.refresh(id), formats: outputFormats }, job, request);
  settings.set('export', { engine: result.engine, projectDir: request.projectDir });
  return result;
}

export interface ExportPlan {
  engine: ExportTarget;
  /** The one mesh format written; null when the job's cached files hold no model. */
  format: ExportFormat | null;
  /** Why the format is not the engine's default, or why the engine may not import it as it is. */
  note?: string;
  /** The files written, by their names in the asset folder. */
  write: { name: string; kind: FileKind }[];
  /** The cached files left out, by their names in the cache, and why. */
  skip: { name: string; kind: FileKind; why: string }[];
}

/**
 * What exportJob would write for these options, from the job's cached files, writing nothing: the project's
 * preset and format (presets.ts chooseFormat: a refused format throws its ExportError, as the export would)
 * and the files' names. A job whose files are not cached yet plans nothing: the export downloads them first.
 */
export async function planJobExport(services: Services, job: JobRecord, request: Omit<JobExportOptions, 'overwrite'>): Promise<ExportPlan> {
  const project = await detectProject(request.projectDir, request.engine);
  const preset = PRESETS[project.engine];
  const files = exportSourcesOf(job, services.cache);
  const { format, note } = chooseFormat(project, files.map((f) => f.kind), request.format);
  // With transforms the FBX or OBJ is made again from the transformed GLB (prepare.ts): the same files are written.
  const { chosen, skipped } = selectFiles(preset, files, false, format);
  const asset = styleName(request.name ?? defaultName(job.label), preset.style);
  return {
    engine: project.engine,
    format: format ?? null,
    ...(note && { note }),
    write: writtenNames(chosen, preset, asset),
    skip: skipped.map(({ file, why }) => ({ name: file.name ?? KIND_NAMES[file.kind], kind: file.kind, why })),
  };
}

/** A cached file as the plan names it when it has no name of its own (its cache path is a hash). */
const KIND_NAMES: Readonly<Record<FileKind, string>> = { glb: 'the GLB', fbx: 'the FBX', obj: 'the OBJ', mtl: 'the MTL', usdz: 'the USDZ', texture: 'a texture', zip: 'the zip', mp4: 'the video' };

/**
 * The names the files get in the asset folder, as export.ts names them: meshes after the asset, textures after
 * the asset and their own name, except beside an FBX (which names its textures inside) where they keep theirs.
 */
function writtenNames(chosen: readonly SourceFile[], preset: Preset, asset: string): ExportPlan['write'] {
  const taken = new Set<string>();
  const withFbx = chosen.some((f) => f.kind === 'fbx');
  return chosen.map((f) => {
    const own = f.name ?? basename(f.path);
    const ext = f.kind === 'texture' ? extname(own).toLowerCase() || '.png' : `.${f.kind}`;
    const stem = basename(own, extname(own));
    const name = f.kind !== 'texture' ? fileName(preset, asset, ext, taken) : withFbx ? fileName(preset, styleName(stem, 'keep'), ext, taken) : fileName(preset, asset, ext, taken, stem);
    taken.add(name.toLowerCase());
    return { name, kind: f.kind };
  });
}

/** As from-job.ts names an export by default: the job's label without its command word and extension. */
function defaultName(label: string): string {
  return label.replace(/^[a-z0-9-]+ /, '').replace(/\.[a-z0-9]+$/i, '') || 'asset';
}
