// batch <paths...>: what a drag-and-drop delivers (files and folders) becomes one queue: images become
// image-to-3D jobs (with the create-3d options), FBX/zip animation uploads. One bad file never stops the
// others. Submitted is not finished: the summary says how many jobs are queued or running at the service,
// and only with --wait, once every job is final, that the batch finished (how many completed, failed).
// Exit 0 when every file was submitted, 2 when some were rejected (bad files), 3 when the service refused
// some (or, with --wait, a job failed).
import { countJobs, describeJobs } from '../../shared/batch-counts.ts';
import { batchJobStates, listBatchFiles, runBatch, type BatchItem } from '../app/batch.ts';
import { batchCreates, checkBatchFiles } from '../app/batch-check.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { printJson, str, timeoutOf, type CommandContext } from './context.ts';
import { checkCost, costJson } from './cost-check.ts';
import { imageOptionsFrom } from './commands.ts';
import { parseNumber } from './values.ts';
import { UsageError } from './usage-error.ts';
import { waitForJobs } from './wait-jobs.ts';

function itemLine(item: Readonly<BatchItem>): string {
  const bytes = item.total ? ` ${formatBytes(item.sent ?? 0)}/${formatBytes(item.total)}` : '';
  return `${String(item.index + 1).padStart(4)}  ${item.state.padEnd(10)} ${item.name}${bytes}${item.error ? `  — ${item.error}` : ''}`;
}

export async function batchCommand(ctx: CommandContext): Promise<number> {
  if (ctx.positionals.length === 0) throw new UsageError('missing argument: asset-studio batch <file or folder>...');
  const concurrency = str(ctx.values, 'concurrency');
  const services = await ctx.services();
  try {
    // The price of what the files will create, before any is sent: each file inspected first (its content, not only
    // its name), so the quote counts only those that will be submitted, and the refused ones are said with why.
    const listed = await listBatchFiles(ctx.positionals);
    const check = await checkBatchFiles(listed.files, undefined, ctx.io.interrupt);
    const creates = batchCreates(check);
    // A bad option is refused before anything is sent (even the balance read of the price): the options are
    // checked with a stand-in image, since every image of the batch gets the same ones.
    const imageOptions = imageOptionsFrom(ctx.values);
    if (creates.includes('createImageTo3d'))
      services.client.prepare('createImageTo3d', {
        body: { ...imageOptions, image_url: 'https://example.invalid/image.png' },
      });
    const cost = await checkCost(services, creates);
    const refused = check.files.flatMap((f) => ('refused' in f ? [f] : []));
    if (!ctx.values.json) {
      for (const f of refused) ctx.io.stderr(`not sent: ${f.refused}\n`);
      const sent = check.files.length - refused.length;
      const counted =
        refused.length > 0 ? ` for the ${sent} file(s) that will be sent (${refused.length} refused)` : '';
      ctx.io.stderr(`${cost.line}${counted}\n`);
    }
    let lastState = new Map<number, string>();
    const summary = await runBatch(listed, {
      submitter: services.submitter,
      imageOptions,
      ...(concurrency !== undefined && { concurrency: parseNumber('concurrency', concurrency) }),
      signal: ctx.io.interrupt,
      checked: check.checked,
      onItem: (item) => {
        // One line per change of state (bytes sent are shown when the state changes).
        if (ctx.values.json || lastState.get(item.index) === item.state) return;
        lastState.set(item.index, item.state);
        if (item.state !== 'inspecting' && item.state !== 'queued') ctx.io.stderr(`${itemLine(item)}\n`);
      },
    });
    lastState = new Map();
    const jobIds = summary.items.flatMap((i) => (i.jobId ? [i.jobId] : []));
    let waitFailed = false;
    let waited = false;
    if (ctx.values.wait && jobIds.length > 0) {
      const jobs = await waitForJobs(services, jobIds, ctx.io, {
        timeoutMs: timeoutOf(ctx.values),
        quiet: ctx.values.json === true,
      });
      waitFailed = jobs.some((j) => j.state !== 'succeeded');
      waited = true;
    }
    // The jobs as they are now: just submitted (queued or running at the service), or all final after --wait.
    const states = batchJobStates(services.store, jobIds);
    const jobs = countJobs(jobIds.map((id) => states.get(id)));
    if (ctx.values.json) printJson(ctx.io, { ...summary, cost: costJson(cost) });
    else {
      ctx.io.stdout(
        `${summary.total} file(s): ${summary.submitted} submitted, ${summary.rejected} rejected, ${summary.failed} failed, ${summary.cancelled} cancelled` +
          `${summary.skipped.length ? `; ${summary.skipped.length} path(s) skipped` : ''}\n`,
      );
      for (const item of summary.items.filter((i) => i.state !== 'submitted')) ctx.io.stdout(`${itemLine(item)}\n`);
      for (const skip of summary.skipped) ctx.io.stdout(`  skipped ${skip.path}: ${skip.reason}\n`);
      if (waited) ctx.io.stdout(`Batch finished: ${describeJobs(jobs)}\n`);
      else if (jobIds.length > 0)
        ctx.io.stdout(
          `Batch submitted: ${describeJobs(jobs)} at the service. Follow them with "asset-studio watch", or wait with --wait.\n`,
        );
    }
    if (summary.failed > 0 || waitFailed) return 3;
    return summary.rejected > 0 || summary.cancelled > 0 ? 2 : 0;
  } finally {
    await services.close();
  }
}
