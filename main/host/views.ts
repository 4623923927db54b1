// What the UI may see of main's records: JobRecord → JobView, CacheEntry → CachedOutput.
import type { CachedOutput, JobView } from '../../shared/bridge/contract.ts';
import type { FileFormat } from '../../shared/file-format.ts';
import { CANCELLED_STATUS } from '../app/job-actions.ts';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { JobRecord } from '../store/jobs.ts';

export function toJobView(job: JobRecord): JobView {
  return {
    id: job.id,
    kind: job.kind,
    remoteId: job.remoteId,
    step: job.step,
    texts: job.texts,
    label: job.label,
    name: job.name ?? job.label,
    origin: job.origin,
    state: job.rawStatus === CANCELLED_STATUS ? 'cancelled' : job.state,
    rawStatus: job.rawStatus,
    percent: job.percent,
    final: job.final,
    error: job.error,
    operationId: job.operationId,
    parentId: job.parentId,
    result: job.result,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    outputsFetched: job.outputsFetched,
  };
}

/** `url`: how the transport serves a complete output (app:// under Electron, /cache/... on the web host). */
export function toCachedOutput(
  entry: CacheEntry,
  url: (sessionId: string, kind: string) => string,
  format?: FileFormat,
): CachedOutput {
  return {
    sessionId: entry.sessionId,
    kind: entry.kind,
    state: entry.state,
    size: entry.size,
    url: entry.state === 'complete' ? url(entry.sessionId, entry.kind) : null,
    error: entry.error,
    ...(format !== undefined && { format }),
  };
}
