// Downloads every output of a job the moment it succeeds: the tracker's `onFinished` hook. A refused
// link (the signature expired) is replaced by the one in a fresh read of the job. Failures are
// reported, never thrown into the tracker; the job is marked fetched only when every output is cached.
import type { FinishedHook } from '../jobs/tracker-options.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { DownloadCache } from './download-cache.ts';
import { fetchObjCompanions } from './obj-companions.ts';
import { DEFAULT_FORMATS, outputsOf, type OutputFormat } from './outputs.ts';

export interface DownloadHookOptions {
  /** Formats the user enabled (GLB always); default DEFAULT_FORMATS. */
  formats?: readonly OutputFormat[];
  /** Told the outcome of each job's downloads, failures included. */
  onReport?: (report: OutputsReport) => void;
}

export interface OutputsReport {
  jobId: string;
  sessionId: string | null;
  /** Path of each output's verified blob. */
  fetched: { kind: string; path: string }[];
  /** Why each other output is not in the cache, and what to do. */
  failed: { kind: string; error: string }[];
}

/** The tracker's hook: downloads the outputs of each job that succeeds; the outcome goes to `options.onReport`. */
export function createDownloadHook(
  cache: DownloadCache,
  store: Store,
  options: DownloadHookOptions = {},
): FinishedHook {
  return async (job, refresh) => {
    const report = await fetchJobOutputs(cache, store, job, refresh, options.formats);
    options.onReport?.(report);
  };
}

/** Downloads every output of a finished job into the cache; never throws (what failed is in the report). */
export async function fetchJobOutputs(
  cache: DownloadCache,
  store: Store,
  job: JobRecord,
  refresh: () => Promise<JobRecord>,
  formats: readonly OutputFormat[] = DEFAULT_FORMATS,
): Promise<OutputsReport> {
  const report: OutputsReport = { jobId: job.id, sessionId: job.remoteId, fetched: [], failed: [] };
  const sessionId = job.remoteId;
  if (sessionId === null) return report;
  let fresh: Promise<JobRecord> | undefined; // one re-read serves every refused link of the job
  const refreshUrl = (kind: string) => async () =>
    outputsOf(await (fresh ??= refresh()), formats).find((o) => o.kind === kind)?.url;
  const outputs = outputsOf(job, formats);
  const results = await Promise.allSettled(
    outputs.map((o) =>
      cache.fetchOutput({
        sessionId,
        jobId: job.id,
        kind: o.kind,
        url: o.url,
        refreshUrl: refreshUrl(o.kind),
        label: job.label,
      }),
    ),
  );
  results.forEach((result, i) => {
    const kind = outputs[i]!.kind;
    if (result.status === 'fulfilled') report.fetched.push({ kind, path: result.value });
    else
      report.failed.push({
        kind,
        error: result.reason instanceof Error ? result.reason.message : String(result.reason),
      });
  });
  // An OBJ's MTL and textures are kept with it (a retopology's OBJ names them; they sit beside it).
  for (const [i, result] of results.entries()) {
    const { kind, url } = outputs[i]!;
    if (result.status !== 'fulfilled') continue;
    const request = {
      sessionId,
      jobId: job.id,
      objKind: kind,
      objUrl: url,
      objPath: result.value,
      refreshObjUrl: refreshUrl(kind),
      label: job.label,
    };
    try {
      report.fetched.push(...(await fetchObjCompanions(cache, request)));
    } catch (error) {
      report.failed.push({
        kind: `${kind} (its MTL or texture)`,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (report.failed.length === 0) {
    try {
      store.jobs.markOutputsFetched(job.id);
    } catch (error) {
      report.failed.push({
        kind: '(job)',
        error: `The outputs are cached but the job could not be marked as fetched: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return report;
}

/**
 * After a restart: downloads the outputs of every succeeded job whose outputs are not all cached yet
 * (the app quit during the downloads, or a download failed), one job after another, each read again first;
 * `include` says which jobs (default all). `refresh` re-reads a job, e.g. `tracker.refresh`. Called by app/pull-outputs.ts
 * pullMissingOutputs when the app starts.
 */
export async function downloadMissing(
  cache: DownloadCache,
  store: Store,
  refresh: (jobId: string) => Promise<JobRecord>,
  formats?: readonly OutputFormat[],
  include: (job: JobRecord) => boolean = () => true,
): Promise<OutputsReport[]> {
  const reports: OutputsReport[] = [];
  for (const job of store.jobs.list({ final: true })) {
    if (job.state !== 'succeeded' || job.outputsFetched || !include(job)) continue;
    // Read again first: the links of the last read may have expired, or been the embedded engine's at
    // another port. Offline, the links as last read are tried.
    const fresh = await refresh(job.id).catch(() => job);
    reports.push(await fetchJobOutputs(cache, store, fresh, () => refresh(job.id), formats));
  }
  return reports;
}
