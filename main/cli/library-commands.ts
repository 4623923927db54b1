// rename, delete: the library's own commands, the same use cases as the app's (main/app/library-actions.ts).
import { deleteFromLibrary, renameJob } from '../app/library-actions.ts';
import { printJson, type CommandContext } from './context.ts';
import { withServices } from './job-commands.ts';
import { findJob } from './job-ref.ts';
import { jobLine } from './progress.ts';
import { UsageError } from './usage-error.ts';

/** The library commands (their arguments and help are in command-table.ts). */
export const LIBRARY_COMMANDS = {
  rename,
  delete: deleteJobs,
} as const satisfies Record<string, (ctx: CommandContext) => Promise<number>>;

/** Gives a job the name the library shows; "" goes back to its label (the input file name or prompt). */
function rename(ctx: CommandContext): Promise<number> {
  const [ref, name] = ctx.positionals;
  if (!ref || name === undefined)
    throw new UsageError(
      'missing argument: asset-studio rename <job> <name> (use "" to go back to its input file name or prompt)',
    );
  return withServices(ctx, async (s) => {
    const job = renameJob(s.store, findJob(s, ref), name);
    if (ctx.values.json) printJson(ctx.io, job);
    else ctx.io.stdout(`${jobLine(job)}\n`);
    return 0;
  });
}

/** Deletes jobs from the library here: records (every step of an older-flow session) and cached files. */
function deleteJobs(ctx: CommandContext): Promise<number> {
  if (ctx.positionals.length === 0) throw new UsageError('missing argument: asset-studio delete <job>...');
  return withServices(ctx, async (s) => {
    const outcome = await deleteFromLibrary(
      s,
      ctx.positionals.map((ref) => findJob(s, ref)),
    );
    if (ctx.values.json) printJson(ctx.io, outcome);
    else {
      ctx.io.stdout(
        `Deleted ${outcome.deleted.length} job record${outcome.deleted.length === 1 ? '' : 's'} and ${outcome.files} cached file${outcome.files === 1 ? '' : 's'}.\n`,
      );
      ctx.io.stderr(`${outcome.note}\n`);
    }
    return 0;
  });
}
