// Export a job's cached outputs into a game project from the app: the export (main/export/from-job.ts),
// and the project and target it went to kept as the next export's default; and what an export would write,
// said before it is run (planJobExport, from-job.ts planJob).
import type { ExportPlan, ExportResult } from '../export/export.ts';
import { exportJob, planJob, type JobExportOptions } from '../export/from-job.ts';
import type { FileKind } from '../export/presets.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { SettingsRepository } from '../store/settings-table.ts';
import type { Services } from './services.ts';

/** Exports a job; `settings` null: the project and target are not kept (an export the user did not ask for by hand). */
export async function exportAndRemember(
  services: Services,
  settings: SettingsRepository | null,
  job: JobRecord,
  request: JobExportOptions,
): Promise<ExportResult> {
  const { cache, store, tracker, outputFormats } = services;
  const result = await exportJob(
    { cache, store, refresh: (id) => tracker.refresh(id), formats: outputFormats },
    job,
    request,
  );
  settings?.set('export', { engine: result.engine, projectDir: request.projectDir });
  return result;
}

/** What export.plan answers: the export's plan (main/export planJob), every file named as the user knows it. */
export type JobExportPlan = Omit<ExportPlan, 'bbox' | 'projectRoot'>;

/**
 * What exportJob would write for these options, from the job's cached files, writing nothing (from-job.ts
 * planJob: the export's own decisions). A refused format or unknown clip throws its ExportError, as the export would.
 */
export async function planJobExport(
  services: Services,
  job: JobRecord,
  request: Omit<JobExportOptions, 'overwrite'>,
): Promise<JobExportPlan> {
  const {
    bbox: _,
    projectRoot: __,
    ...plan
  } = await planJob({ cache: services.cache, store: services.store }, job, request);
  // A cached file's own name is its content hash: it is named by its format instead.
  return { ...plan, skip: plan.skip.map((f) => (f.name.includes('.') ? f : { ...f, name: KIND_NAMES[f.kind] })) };
}

/** A cached file as the plan names it when it has no name of its own. */
const KIND_NAMES: Readonly<Record<FileKind, string>> = {
  glb: 'the GLB',
  fbx: 'the FBX',
  obj: 'the OBJ',
  mtl: 'the MTL',
  usdz: 'the USDZ',
  texture: 'a texture',
  zip: 'the zip',
  mp4: 'the video',
};
