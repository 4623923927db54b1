// Export a job's cached outputs into a game project from the app: the export (main/export/from-job.ts),
// and the project and target it went to kept as the next export's default; and what an export would write,
// said before it is run (planJobExport, from-job.ts planJob).
import { resolveProfile, unknownProfileMessage, type ProfileEdit } from '../../shared/target-profiles.ts';
import { readFile } from 'node:fs/promises';
import type { GameReadyReport } from '../../shared/export-options.ts';
import { ExportError, ioError } from '../export/errors.ts';
import { exportSourcesOf } from '../export/from-job.ts';
import { lodPreview } from '../export/gameready-files.ts';
import type { ExportPlan, ExportResult } from '../export/export.ts';
import { exportJob, planJob, type JobExportOptions } from '../export/from-job.ts';
import type { FileKind } from '../export/presets.ts';
import type { JobRecord } from '../store/jobs.ts';
import { savedProfiles } from './fit-actions.ts';
import type { SettingsRepository } from '../store/settings-table.ts';
import type { Services } from './services.ts';

/** An export as the bridge and the CLI ask for it: the target profile by its name (`unity-mobile`). */
export type ExportRequest = Omit<JobExportOptions, 'profile'> & { profile?: string | undefined };

/**
 * The export's options with the profile named resolved (shared/target-profiles.ts: the built-in profile with the
 * user's saved edits); ExportError `bad-input` naming the profiles there are for an unknown name.
 */
export function withProfile(
  request: ExportRequest,
  edits: Readonly<Record<string, ProfileEdit>> = {},
): JobExportOptions {
  const { profile: name, ...rest } = request;
  if (name === undefined) return rest;
  const profile = resolveProfile(name, edits);
  if (profile === undefined)
    throw new ExportError('bad-input', {
      file: 'profile',
      why: unknownProfileMessage(name),
      fix: 'Choose one of the profiles listed',
    });
  return { ...rest, profile };
}

/**
 * A job's export options as the app, the web host and the CLI all make them: the profile named resolved with the
 * user's saved edits (Settings › Target profiles), and with a profile, the real height the user gave for the job
 * (the engine-fit check's "Set height" fix, kept per job) unless the request asks for a scale of its own.
 */
function exportOptionsFor(services: Pick<Services, 'store'>, job: JobRecord, request: ExportRequest): JobExportOptions {
  const options = withProfile(request, savedProfiles(services.store.settings).edits);
  if (options.profile === undefined || options.transforms?.scale !== undefined) return options;
  const heightM = services.store.reviews.get(job.id)?.heightM;
  return heightM ? { ...options, transforms: { ...options.transforms, scale: { height: heightM } } } : options;
}

/** Exports a job; `settings` null: the project and target are not kept (an export the user did not ask for by hand). */
export async function exportAndRemember(
  services: Services,
  settings: SettingsRepository | null,
  job: JobRecord,
  request: ExportRequest,
): Promise<ExportResult> {
  const { cache, store, tracker, outputFormats } = services;
  const result = await exportJob(
    { cache, store, refresh: (id) => tracker.refresh(id), formats: outputFormats },
    job,
    exportOptionsFor(services, job, request),
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
  request: Omit<ExportRequest, 'overwrite'>,
): Promise<JobExportPlan> {
  const {
    bbox: _,
    projectRoot: __,
    ...plan
  } = await planJob({ cache: services.cache, store: services.store }, job, exportOptionsFor(services, job, request));
  // A cached file's own name is its content hash: it is named by its format instead.
  return { ...plan, skip: plan.skip.map((f) => (f.name.includes('.') ? f : { ...f, name: KIND_NAMES[f.kind] })) };
}

/**
 * One LOD level of a finished job's model made ready for a profile (by name, with the user's edits), as a GLB for
 * the viewer's LOD preview, with how many levels there are and the chain's report (triangles, error per level).
 * The job's GLB must be in the cache (ExportError `nothing-to-export` otherwise); an unknown profile or a level
 * the chain does not have is ExportError `bad-input`.
 */
export async function previewLod(
  services: Pick<Services, 'cache' | 'store'>,
  job: JobRecord,
  request: { profile: string; level: number },
  edits: Readonly<Record<string, ProfileEdit>> = {},
): Promise<{ glb: Uint8Array; levels: number; report: GameReadyReport }> {
  const saved = savedProfiles(services.store.settings).edits;
  const { profile } = withProfile({ projectDir: '', profile: request.profile }, { ...saved, ...edits });
  const glb = exportSourcesOf(job, services.cache).find((f) => f.kind === 'glb');
  if (!glb)
    throw new ExportError('nothing-to-export', {
      file: job.label,
      why: 'its GLB is not in the local cache',
      fix: 'Download its outputs first (open it in the viewer), then preview its LODs',
    });
  const bytes = await readFile(glb.path).catch((error: unknown) => {
    throw ioError(glb.path, 'reading the GLB', error);
  });
  return lodPreview(bytes, glb.path, profile!, request.level);
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
