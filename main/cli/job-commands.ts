// jobs, job, wait, watch, cancel, retry, reconcile: the local record of every job, followed to its end.
import { canFollow } from '../../shared/kinds/index.ts';
import { cancelJob, reconcileSubmissions, retryJob } from '../app/job-actions.ts';
import type { Services } from '../app/services.ts';
import type { JobRecord } from '../store/jobs.ts';
import { printJson, str, timeoutOf, type CommandContext } from './context.ts';
import { checkCost, costJson, type CostFacts } from './cost-check.ts';
import { findJob } from './job-ref.ts';
import { jobLine } from './progress.ts';
import { parseNumber } from './values.ts';
import { UsageError } from './usage-error.ts';
import { waitForJobs } from './wait-jobs.ts';

/** The job commands (their arguments, options and help are in command-table.ts). */
export const JOB_COMMANDS = {
  jobs: listJobs,
  job: showJob,
  wait: waitJobs,
  watch: watchJobs,
  cancel,
  retry,
  reconcile,
} as const satisfies Record<string, (ctx: CommandContext) => Promise<number>>;

/** Kept here for the commands that import it from this module: the resolver lives in job-ref.ts. */
export { findJob };

export async function withServices<T>(ctx: CommandContext, fn: (s: Services) => Promise<T>): Promise<T> {
  const services = await ctx.services();
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

function listJobs(ctx: CommandContext): Promise<number> {
  return withServices(ctx, async (s) => {
    const limitText = str(ctx.values, 'limit');
    const limit = limitText === undefined ? 50 : parseNumber('limit', limitText);
    const jobs = s.store.jobs.list({ ...(ctx.values.active && { final: false }), limit });
    if (ctx.values.json) printJson(ctx.io, jobs);
    else ctx.io.stdout(`${jobs.length ? jobs.map(jobLine).join('\n') : '(no jobs)'}\n`);
    return 0;
  });
}

function showJob(ctx: CommandContext): Promise<number> {
  const ref = ctx.positionals[0];
  if (!ref) throw new UsageError('missing argument: asset-studio job <id>');
  return withServices(ctx, async (s) => {
    const job = findJob(s, ref);
    if (ctx.values.json) printJson(ctx.io, job);
    else {
      const fields = {
        id: job.id,
        remote: job.remoteId,
        kind: job.kind,
        step: job.step,
        name: job.name,
        label: job.label,
        state: job.state,
        status: job.rawStatus,
        percent: job.percent,
        error: job.error,
        operation: job.operationId,
        created: new Date(job.createdAt).toISOString(),
        finished: job.finishedAt && new Date(job.finishedAt).toISOString(),
      };
      ctx.io.stdout(
        `${Object.entries(fields)
          .filter(([, v]) => v !== null && v !== undefined)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n')}\n`,
      );
    }
    return 0;
  });
}

async function finishWait(ctx: CommandContext, s: Services, ids: string[]): Promise<number> {
  const jobs = await waitForJobs(s, ids, ctx.io, { timeoutMs: timeoutOf(ctx.values), quiet: ctx.values.json === true });
  if (ctx.values.json) printJson(ctx.io, jobs);
  const failed = jobs.filter((j) => j.state !== 'succeeded');
  for (const j of failed) ctx.io.stderr(`error: ${j.remoteId ?? j.id} ${j.state}: ${j.error ?? j.rawStatus}\n`);
  return failed.length ? 3 : 0;
}

function waitJobs(ctx: CommandContext): Promise<number> {
  if (ctx.positionals.length === 0) throw new UsageError('missing argument: asset-studio wait <id>...');
  return withServices(ctx, (s) => {
    const jobs = ctx.positionals.map((ref) => findJob(s, ref));
    const blind = jobs.find((j) => !j.final && !canFollow(j.kind));
    if (blind)
      throw new UsageError(
        `${blind.remoteId ?? blind.id} is a ${blind.kind}: the service offers no way to read it back, so it cannot be waited for.`,
      );
    return finishWait(
      ctx,
      s,
      jobs.map((j) => j.id),
    );
  });
}

function watchJobs(ctx: CommandContext): Promise<number> {
  return withServices(ctx, async (s) => {
    const ids = s.store.jobs
      .listActive()
      .filter((j) => j.remoteId !== null && canFollow(j.kind))
      .map((j) => j.id);
    if (ids.length === 0) {
      if (ctx.values.json) printJson(ctx.io, []);
      ctx.io.stderr('No unfinished jobs.\n');
      return 0;
    }
    return finishWait(ctx, s, ids);
  });
}

/** Stops following a job here (the service offers no cancel: it may still finish there). */
function cancel(ctx: CommandContext): Promise<number> {
  const ref = ctx.positionals[0];
  if (!ref) throw new UsageError('missing argument: asset-studio cancel <job>');
  return withServices(ctx, async (s) => {
    const job = cancelJob(s.store, findJob(s, ref));
    if (ctx.values.json) printJson(ctx.io, job);
    else {
      ctx.io.stdout(`${jobLine(job)}\n`);
      ctx.io.stderr(`${job.error}\n`);
    }
    return 0;
  });
}

/** Sends a failed, cancelled or abandoned job's request again (main/app/job-actions.ts: never twice). */
function retry(ctx: CommandContext): Promise<number> {
  const ref = ctx.positionals[0];
  if (!ref) throw new UsageError('missing argument: asset-studio retry <job>');
  return withServices(ctx, async (s) => {
    let cost: CostFacts | undefined;
    const outcome = await retryJob(s, findJob(s, ref), {
      beforeSend: async (endpoint) => {
        cost = await checkCost(s, [endpoint]);
        if (!ctx.values.json) ctx.io.stderr(`${cost.line}\n`);
      },
    });
    if (outcome.status !== 'created')
      ctx.io.stderr(`Operation ${outcome.operationId} ${outcome.status}: nothing new was sent.\n`);
    let job = outcome.job;
    if (ctx.values.wait)
      [job] = (await waitForJobs(s, [job.id], ctx.io, {
        timeoutMs: timeoutOf(ctx.values),
        quiet: ctx.values.json === true,
      })) as [JobRecord];
    if (ctx.values.json)
      printJson(ctx.io, { operationId: outcome.operationId, job, ...(cost && { cost: costJson(cost) }) });
    else {
      ctx.io.stdout(`${jobLine(job)}\n`);
      ctx.io.stderr(`operation ${outcome.operationId}, job ${job.id}\n`);
    }
    if (ctx.values.wait && job.state !== 'succeeded') {
      ctx.io.stderr(
        `error: ${job.remoteId ?? job.id} ended ${job.rawStatus}: ${job.error ?? 'the service could not finish the job.'}\n`,
      );
      return 3;
    }
    return 0;
  });
}

function reconcile(ctx: CommandContext): Promise<number> {
  return withServices(ctx, async (s) => {
    const results = await reconcileSubmissions(s, {
      operationId: ctx.positionals[0],
      sessionCode: str(ctx.values, 'session'),
      abandon: ctx.values.abandon === true,
    });
    if (ctx.values.json)
      printJson(
        ctx.io,
        results.map(({ job, ...r }) => ({ ...r, jobId: job?.id })),
      );
    else if (results.length === 0) ctx.io.stdout('No lost submissions.\n');
    else {
      for (const r of results) {
        ctx.io.stdout(`${r.operationId}  ${r.outcome}\n`);
        for (const c of r.candidates ?? [])
          ctx.io.stdout(`  candidate ${c.sessionCode}  created ${c.createdAt}  ${c.status}\n`);
      }
      if (results.some((r) => !r.reconciled)) {
        ctx.io.stdout(
          'For each one not reconciled: "asset-studio reconcile OP --session CODE" if you find it at the service, or "asset-studio reconcile OP --abandon" if it was never created.\n',
        );
      }
    }
    return results.every((r) => r.reconciled) ? 0 : 3;
  });
}
