// Runs a command of an endpoint: reads go straight to the client; creates go through the journal
// (and so become jobs), with --wait following them through the tracker.
import { ENDPOINTS, type EndpointId } from '../../shared/contract/index.ts';
import { fileNameOf } from '../../shared/url-name.ts';
import { readEndpointOfCreate } from '../../shared/kinds/index.ts';
import type { EndpointCommand } from './commands.ts';
import { printJson, str, timeoutOf, type CommandContext } from './context.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { formatResult } from './format.ts';
import { UsageError } from './usage-error.ts';
import { dropRefusedFromLabel } from '../app/prompt-label.ts';

export async function runEndpointCommand(command: EndpointCommand, ctx: CommandContext): Promise<number> {
  const call = await command.build(ctx.positionals, ctx.values);
  if (call.file !== undefined && ctx.io.stderrIsTTY && !ctx.values.json) {
    call.onUploadProgress = ({ sent, total }) =>
      (ctx.io.terminal ?? ctx.io.stderr)(
        `\r\x1b[2Kuploading ${formatBytes(sent)} of ${formatBytes(total)} (${total ? Math.floor((100 * sent) / total) : 100}%)${sent === total ? '\n' : ''}`,
      );
  }
  const mutating = ENDPOINTS[command.endpoint].mutating;
  const operationId = str(ctx.values, 'operation-id');
  if (ctx.values.wait && !command.waits)
    throw new UsageError(`--wait does not apply to "${command.name}": it does not start a job that can be followed.`);
  if (operationId !== undefined && !mutating)
    throw new UsageError(`--operation-id applies to commands that create something, not to "${command.name}".`);
  if (!mutating) {
    const read = await ctx.readClient();
    try {
      const data = await read.client.call(command.endpoint, call);
      ctx.io.stdout(`${ctx.values.json ? JSON.stringify(data, null, 2) : formatResult(command.endpoint, data)}\n`);
      return 0;
    } finally {
      await read.close();
    }
  }
  // A create's price check and its --wait (the cache behind it) are loaded only for creates: a read needs neither.
  const [{ checkCost, costJson }, { waitForJobs }] = await Promise.all([
    import('./cost-check.ts'),
    import('./wait-jobs.ts'),
  ]);
  const services = await ctx.services();
  try {
    // A replay of a journaled operation sends nothing new: no price to show.
    const replay = operationId !== undefined && services.store.journal.get(operationId) !== undefined;
    // A bad value is refused before anything is sent, even the read of the balance the price needs.
    if (!replay) services.client.prepare(command.endpoint, call);
    const cost = replay ? undefined : await checkCost(services, [command.endpoint]);
    if (cost && !ctx.values.json) ctx.io.stderr(`${cost.line}\n`);
    const outcome = dropRefusedFromLabel(
      services.store,
      await services.submitter.submit(command.endpoint, call, {
        label: labelOf(command, ctx.positionals, call.body),
        operationId,
      }),
    );
    let job = outcome.job;
    if (outcome.status === 'reconciled')
      ctx.io.stderr(
        `Operation ${outcome.operationId}: its answer was lost, and the session it created was found at the service (${job?.remoteId ?? 'unknown'}).\n`,
      );
    else if (outcome.status !== 'created')
      ctx.io.stderr(`Operation ${outcome.operationId} ${outcome.status}: nothing new was sent.\n`);
    // A reconciled create has no answer of its own: the session is read back to be shown (never null).
    if (job && job.result === null && job.remoteId !== null && !ctx.values.wait)
      job = await services.tracker.refresh(job.id).catch(() => job);
    if (ctx.values.wait && job) {
      const [done] = await waitForJobs(services, [job.id], ctx.io, {
        timeoutMs: timeoutOf(ctx.values),
        quiet: ctx.values.json === true,
      });
      if (ctx.values.json)
        printJson(ctx.io, { operationId: outcome.operationId, job: done, ...(cost && { cost: costJson(cost) }) });
      else ctx.io.stdout(`${formatResult(readEndpointOf(command), done!.result)}\n`);
      if (done!.state !== 'succeeded') {
        ctx.io.stderr(
          `error: ${done!.remoteId} ended ${done!.rawStatus}: ${done!.error ?? 'the service could not finish the job.'}\n`,
        );
        return 3;
      }
      return 0;
    }
    const data = ('data' in outcome ? outcome.data : job?.result) ?? null;
    if (ctx.values.json)
      printJson(ctx.io, {
        operationId: outcome.operationId,
        ...(job && { jobId: job.id }),
        data,
        ...(cost && { cost: costJson(cost) }),
      });
    else {
      const shown =
        data !== null
          ? formatResult(outcome.status === 'reconciled' ? readEndpointOf(command) : command.endpoint, data)
          : `session: ${job?.remoteId ?? 'unknown'} (${job?.rawStatus || job?.state || 'not read yet'})`;
      ctx.io.stdout(`${shown}\n`);
      ctx.io.stderr(`operation ${outcome.operationId}${job ? `, job ${job.id}` : ''}\n`);
    }
    return 0;
  } finally {
    await services.close();
  }
}

/** What the user sees for the job: the file name, prompt or session (a URL given as an option: its file name). */
function labelOf(command: EndpointCommand, positionals: string[], body: unknown): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const url = [b.mesh_url, b.image_url, b.zip_url].find((v): v is string => typeof v === 'string');
  const first = positionals.join(' ') || (url ?? '');
  // A URL gives its file name only (a signed URL's query string never reaches the label, nor the export folder).
  const label = first.startsWith('data:') ? 'image' : fileNameOf(first) || first;
  return `${command.name} ${label}`.slice(0, 120);
}

/** After --wait the data shown is the resource as read back (by its kind's read endpoint), not the create's answer. */
function readEndpointOf(command: EndpointCommand): EndpointId {
  return readEndpointOfCreate(command.endpoint) ?? command.endpoint;
}
