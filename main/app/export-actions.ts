// Export a job's cached outputs into a game project from the app: the export (main/export/from-job.ts),
// and the project and target it went to kept as the next export's default.
import type { ExportResult } from '../export/export.ts';
import { exportJob, type JobExportOptions } from '../export/from-job.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { SettingsRepository } from '../store/settings-table.ts';
import type { Services } from './services.ts';

export async function exportAndRemember(services: Services, settings: SettingsRepository, job: JobRecord, request: JobExportOptions): Promise<ExportResult> {
  const { cache, store, tracker, outputFormats } = services;
  const result = await exportJob({ cache, store, refresh: (id) => tracker.refresh(id), formats: outputFormats }, job, request);
  settings.set('export', { engine: result.engine, projectDir: request.projectDir });
  return result;
}
