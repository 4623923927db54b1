// The one "pull a job's outputs" use case: the outputs of a finished job into the download cache, in the
// formats turned on in Settings (GLB and a job's main result always), with fresh signed links when a link has
// expired. The CLI's pull, wait and every --wait, the bridge's cache.fetch, and the app's downloads at start
// (pullMissingOutputs) come here; the tracker's hook (cache/auto-download.ts) the moment a job succeeds.
import { downloadMissing, fetchJobOutputs, type OutputsReport } from '../cache/auto-download.ts';
import type { OutputFormat } from '../cache/outputs.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { Services } from './services.ts';

export function pullJobOutputs(
  services: Pick<Services, 'cache' | 'store' | 'tracker' | 'outputFormats'>,
  job: JobRecord,
  formats: readonly OutputFormat[] = services.outputFormats,
): Promise<OutputsReport> {
  return fetchJobOutputs(services.cache, services.store, job, () => services.tracker.refresh(job.id), formats);
}

/**
 * When the app starts (app-session.ts): the outputs of every succeeded job not all in the cache yet (the
 * app quit during its downloads, or one failed), one job after another, in the formats turned on in
 * Settings; a `.part` left by a crash resumes. Only the jobs made where the app is connected now (the
 * embedded engine's, or a service's): the others' links and sessions are not this connection's. Never
 * rejects: what failed is in the reports.
 */
export function pullMissingOutputs(
  services: Pick<Services, 'cache' | 'store' | 'tracker' | 'outputFormats' | 'mode'>,
): Promise<OutputsReport[]> {
  const origin = services.mode === 'embedded' ? 'local-engine' : 'service';
  return downloadMissing(
    services.cache,
    services.store,
    (id) => services.tracker.refresh(id),
    services.outputFormats,
    (job) => job.origin === null || job.origin === origin,
  ).catch(() => []);
}
