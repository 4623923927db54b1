// pull, cache, export: outputs of finished jobs into the verified local cache, and from there into a
// game project. Everything but pull works with no network.
import { resolve } from 'node:path';
import { shownState } from '../../shared/contract/status.ts';
import { pullJobOutputs } from '../app/pull-outputs.ts';
import {
  doubleConversion,
  EXPORT_FORMATS,
  EXPORT_TARGETS,
  transformsSchema,
  type ExportFormat,
  type ExportTarget,
  type GameReadyReport,
  type Transforms,
} from '../../shared/export-options.ts';
import { PROFILE_NAMES, unknownProfileMessage } from '../../shared/target-profiles.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { printJson, str, type CommandContext } from './context.ts';
import { findJob, withServices } from './job-commands.ts';
import { parseNumber } from './values.ts';
import { UsageError } from './usage-error.ts';
import { findCommand } from './command-table.ts';
import { usageLine } from './help.ts';

/** pull <job>: downloads every output of a finished job into the cache (fresh signed URLs when needed). */
export function pullCommand(ctx: CommandContext): Promise<number> {
  const ref = ctx.positionals[0];
  if (!ref) throw new UsageError('missing argument: asset-studio pull <job>');
  return withServices(ctx, async (s) => {
    const job = findJob(s, ref);
    if (job.state !== 'succeeded')
      throw new UsageError(
        `${job.remoteId ?? job.id} is ${shownState({ state: job.state, raw: job.rawStatus })}: only finished jobs have outputs. Follow it with "asset-studio wait ${job.id}".`,
      );
    const report = await pullJobOutputs(s, job);
    if (ctx.values.json) printJson(ctx.io, report);
    else {
      for (const f of report.fetched) ctx.io.stdout(`${f.kind.padEnd(16)} ${f.path}\n`);
      for (const f of report.failed) ctx.io.stderr(`error: ${f.kind}: ${f.error}\n`);
    }
    return report.failed.length ? 3 : 0;
  });
}

/** cache ls | verify | gc */
export function cacheCommand(ctx: CommandContext): Promise<number> {
  const action = ctx.positionals[0] ?? 'ls';
  return withServices(ctx, async (s) => {
    if (action === 'ls') {
      const entries = s.cache.list();
      if (ctx.values.json) printJson(ctx.io, { entries, usage: s.cache.usage() });
      else {
        for (const e of entries)
          ctx.io.stdout(
            `${e.sessionId}  ${e.kind.padEnd(16)} ${e.state.padEnd(8)} ${e.size === null ? '' : formatBytes(e.size)}${e.pinned ? '  pinned' : ''}\n`,
          );
        const u = s.cache.usage();
        ctx.io.stdout(`${entries.length} output(s), ${formatBytes(u.bytes)} of ${formatBytes(u.maxBytes)}\n`);
      }
      return 0;
    }
    if (action === 'verify') {
      const report = await s.cache.verify();
      if (ctx.values.json) printJson(ctx.io, report);
      else
        ctx.io.stdout(
          `${report.checked} blob(s) checked, ${report.bad.length} damaged and removed${report.bad.length ? ' (run "asset-studio pull <job>" to download them again)' : ''}\n`,
        );
      return report.bad.length ? 3 : 0;
    }
    if (action === 'gc') {
      const report = await s.cache.gc();
      if (ctx.values.json) printJson(ctx.io, report);
      else
        ctx.io.stdout(
          `${report.evicted.length} output(s) evicted, ${formatBytes(report.freedBytes)} freed, ${report.orphans} stray file(s) removed\n`,
        );
      return 0;
    }
    throw new UsageError('usage: asset-studio cache ls|verify|gc');
  });
}

/** export <job> --project DIR [--engine unity|unreal|godot|folder] [--format glb|fbx|obj]: from the cache into a game project. */
export async function exportCommand(ctx: CommandContext): Promise<number> {
  const ref = ctx.positionals[0];
  const projectDir = str(ctx.values, 'project');
  if (!ref || !projectDir) throw new UsageError(`usage: ${usageLine(findCommand('export')!)}`);
  const engine = str(ctx.values, 'engine');
  if (engine !== undefined && !(EXPORT_TARGETS as readonly string[]).includes(engine))
    throw new UsageError(`--engine must be one of ${EXPORT_TARGETS.join(', ')} (got "${engine}").`);
  const format = str(ctx.values, 'format');
  if (format !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got "${format}").`);
  const transforms = transformsFrom(ctx);
  const profile = str(ctx.values, 'profile');
  if (profile !== undefined && !PROFILE_NAMES.includes(profile)) throw new UsageError(unknownProfileMessage(profile));
  // A path with `..` steps is said resolved before anything is written: the user sees where it lands.
  const resolved = resolve(projectDir);
  if (projectDir.split(/[\\/]/).includes('..')) ctx.io.stderr(`Project folder: ${resolved} (from "${projectDir}")\n`);
  // The app's export use case (glTF-Transform…): loaded for export only. The project is not kept as the app's next.
  const { exportAndRemember } = await import('../app/export-actions.ts');
  return withServices(ctx, async (s) => {
    const job = findJob(s, ref);
    const result = await exportAndRemember(s, null, job, {
      projectDir: resolved,
      engine: engine as ExportTarget | undefined,
      name: str(ctx.values, 'name'),
      transforms,
      overwrite: ctx.values.overwrite === true,
      format: format as ExportFormat | undefined,
      clips: clipsFrom(ctx),
      profile,
      // No --pivot: the game engines' default (bottom centre); --pivot as-is keeps the file's origin.
      pivotByDefault: str(ctx.values, 'pivot') === undefined,
    });
    const twice = doubleConversion(result.engine, transforms);
    if (twice) ctx.io.stderr(`warning: ${twice}\n`);
    if (result.note) ctx.io.stderr(`note: ${result.note}\n`);
    // (A box is reported only when transforms were applied: with none asked for, the default pivot was.)
    if (str(ctx.values, 'pivot') === undefined && transforms === undefined && result.bbox)
      ctx.io.stderr(
        `note: pivot at the bottom centre, the default for ${result.engine}: the model stands on the floor (--pivot as-is keeps the file's origin)\n`,
      );
    if (ctx.values.json) printJson(ctx.io, result);
    else {
      ctx.io.stdout(`Exported to ${result.targetDir} (${result.engine})\n`);
      for (const f of result.files) ctx.io.stdout(`  ${f.path}  ${formatBytes(f.size)}\n`);
      for (const f of result.skipped) ctx.io.stdout(`  skipped ${f.kind}: ${f.why}\n`);
      if (result.clips) ctx.io.stdout(`  clips: ${result.clips.written.join(', ') || 'none'}\n`);
      if (result.gameReady) for (const line of gameReadyLines(result.gameReady)) ctx.io.stdout(`  ${line}\n`);
      for (const c of result.clips?.skipped ?? []) ctx.io.stdout(`  clip left out: ${c.name}: ${c.why}\n`);
    }
    return 0;
  });
}

/** What a profile made of the model, one line each: the LODs with their triangles and error, then the fixes. */
function gameReadyLines(report: GameReadyReport): string[] {
  const levels = report.levels.map(
    (l) => `LOD${l.level}: ${l.triangles.toLocaleString('en-US')} triangles, error ${(l.error * 100).toFixed(2)} %`,
  );
  return [`profile ${report.profile}:`, ...levels.map((l) => `  ${l}`), ...report.fixed.map((f) => `  fixed: ${f}`)];
}

/** `--clips "walk forward,Idle"`: the clips an animated export keeps (by name, id or output key); every clip without it. */
function clipsFrom(ctx: CommandContext): string[] | undefined {
  const raw = str(ctx.values, 'clips');
  if (raw === undefined) return undefined;
  const clips = raw
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (clips.length === 0)
    throw new UsageError('--clips needs at least one clip name (comma-separated), e.g. --clips "Idle,walk forward".');
  return clips;
}

function transformsFrom(ctx: CommandContext): Transforms | undefined {
  const v = ctx.values;
  const height = str(v, 'scale-height');
  const largest = str(v, 'scale-largest');
  const factor = str(v, 'scale-factor');
  const raw = {
    ...(height !== undefined && { scale: { height: parseNumber('scale-height', height) } }),
    ...(largest !== undefined && { scale: { largest: parseNumber('scale-largest', largest) } }),
    ...(factor !== undefined && { scale: { factor: parseNumber('scale-factor', factor) } }),
    ...(str(v, 'pivot') !== undefined && str(v, 'pivot') !== 'as-is' && { pivot: str(v, 'pivot') }),
    ...(str(v, 'up-axis') !== undefined && { upAxis: str(v, 'up-axis') }),
  };
  if (Object.keys(raw).length === 0) return undefined;
  const parsed = transformsSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(
      `invalid transform options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}
