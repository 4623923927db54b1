// Waits for jobs through the tracker, with live progress on stderr; used by --wait, wait and watch.
import { AppError } from '../../shared/errors.ts';
import type { Services } from '../app/services.ts';
import { pullJobOutputs } from '../app/pull-outputs.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { CliIO } from './context.ts';
import { progressView } from './progress.ts';

export class WaitTimeoutError extends AppError<'wait-timeout'> {
  constructor(message: string) {
    super('wait-timeout', message);
  }
}

export async function waitForJobs(
  services: Services,
  ids: string[],
  io: CliIO,
  options: { timeoutMs?: number | undefined; quiet?: boolean },
): Promise<JobRecord[]> {
  const { tracker, store } = services;
  const view = progressView(io.stderr, io.stderrIsTTY, io.terminal);
  const show = (job: JobRecord) => {
    if (!options.quiet && ids.includes(job.id)) view.update(job);
  };
  for (const id of ids) show(store.jobs.require(id));
  const events = ['progress', 'finished', 'failed', 'job-added'] as const;
  for (const e of events) tracker.on(e, show);
  const stop = AbortSignal.any([
    io.interrupt,
    ...(options.timeoutMs !== undefined ? [AbortSignal.timeout(options.timeoutMs)] : []),
  ]);
  await services.startWebhooks();
  // The bars show what the service reports on the way, not only the end: watched jobs are read often.
  const unwatch = options.quiet ? () => undefined : tracker.watch(ids);
  tracker.start();
  try {
    const jobs = await tracker.waitFor(ids, stop);
    await cacheOutputs(services, jobs, io, options.quiet === true);
    return jobs;
  } catch (error) {
    if (io.interrupt.aborted)
      throw new Error(
        'Stopped. The jobs keep running at the service; resume with "asset-studio wait" or "asset-studio watch".',
      );
    if (stop.aborted) {
      const open = ids.map((id) => store.jobs.require(id)).filter((j) => !j.final);
      throw new WaitTimeoutError(
        `${open.length} job(s) still running after ${Math.round((options.timeoutMs ?? 0) / 1000)} s (${open.map((j) => j.remoteId ?? j.id).join(', ')}). ` +
          'They keep running at the service: check them with "asset-studio jobs", or wait longer with --timeout.',
      );
    }
    throw error;
  } finally {
    unwatch();
    for (const e of events) tracker.off(e, show);
    view.done();
  }
}

/**
 * The tracker starts downloading the outputs of each finished job; a command that exits afterwards
 * waits for those downloads, so everything it reported done is in the cache.
 */
async function cacheOutputs(services: Services, jobs: JobRecord[], io: CliIO, quiet: boolean): Promise<void> {
  for (const job of jobs.filter((j) => j.state === 'succeeded')) {
    const report = await pullJobOutputs(services, job); // the formats turned on in Settings
    if (!quiet && io.stderrIsTTY && report.fetched.length)
      io.stderr(`${job.remoteId}: ${report.fetched.length} output(s) in the local cache\n`);
    for (const failed of report.failed) io.stderr(`warning: ${job.remoteId}: ${failed.kind}: ${failed.error}\n`);
  }
}
