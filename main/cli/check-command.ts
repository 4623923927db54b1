// check <job> [--profile P] [--height METRES]: the engine-fit check of a job's model (main/app/fit-actions.ts), as
// a table or, with --json, `{ profile, findings, model, heightM }`. Exit 0 with no error-level finding, else the
// code of `check-failed` (shared/errors.ts). Works with no network: the model is read from the download cache.
import { mappingOf } from '../../shared/errors.ts';
import { verdictOf } from '../../shared/fit-check.ts';
import { checkJob, setJobHeight } from '../app/fit-actions.ts';
import { printJson, str, type CommandContext } from './context.ts';
import { findJob, withServices } from './job-commands.ts';
import { UsageError } from './usage-error.ts';
import { parseNumber } from './values.ts';

export async function checkCommand(ctx: CommandContext): Promise<number> {
  const ref = ctx.positionals[0];
  if (!ref) throw new UsageError('missing argument: asset-studio check <job> [--profile P] [--height METRES]');
  const heightText = str(ctx.values, 'height');
  const height = heightText === undefined ? undefined : parseNumber('height', heightText);
  return withServices(ctx, async (s) => {
    const job = findJob(s, ref);
    if (height !== undefined) setJobHeight(s, job, height);
    const report = await checkJob(s, s.store.settings, job, str(ctx.values, 'profile'));
    if (ctx.values.json) printJson(ctx.io, report);
    else {
      const m = report.model;
      ctx.io.stdout(
        `${job.name ?? job.label} against ${report.profile}: ${m.triangles.toLocaleString('en-US')} triangles, ${m.size.join(' × ')} m` +
          `${m.largestTexture === null ? '' : `, largest texture ${m.largestTexture} px`}` +
          `${m.texelDensity === null ? '' : `, ${m.texelDensity} px/m`}\n`,
      );
      for (const f of report.findings)
        ctx.io.stdout(
          `${f.severity.padEnd(8)} ${f.code.padEnd(26)} ${f.message}${f.fix ? `  → ${f.fix.label}` : ''}\n`,
        );
      ctx.io.stdout(`${verdictLine(verdictOf(report))}\n`);
    }
    return verdictOf(report) === 'fails' ? mappingOf('check-failed').exitCode : 0;
  });
}

function verdictLine(verdict: ReturnType<typeof verdictOf>): string {
  if (verdict === 'fails') return 'Does not fit: the export with this profile applies the fixes shown (→).';
  return verdict === 'warnings' ? 'Fits, with warnings.' : 'Fits.';
}
