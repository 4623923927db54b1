// The one "pull a job's outputs" use case: the outputs of a finished job into the download cache, in the
// formats turned on in Settings (GLB and a job's main result always), with fresh signed links when a link has
// expired. The CLI's pull, wait and every --wait, and the app's auto-download all come here.
import { fetchJobOutputs, type OutputsReport } from '../cache/auto-download.ts';
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
