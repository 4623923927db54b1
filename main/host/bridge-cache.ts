// The bridge's cache commands: a session's cached outputs, every cached model (the compare view's choices),
// downloading a job's outputs (the one pull use case, in the formats set now), the files inside a cached zip,
// and a retopology's original.
import type { CommandOutput } from '../../shared/bridge/contract.ts';
import { outputLabelOf } from '../../shared/kinds/index.ts';
import { cachedModels } from '../app/library-actions.ts';
import { pullJobOutputs } from '../app/pull-outputs.ts';
import { savedOutputFormats } from '../app/settings-actions.ts';
import { findOriginal } from '../cache/original.ts';
import { cachedZipEntries, ZipEntryError } from '../cache/zip-entries.ts';
import { jobOf, type BridgeContext, type Handlers } from './bridge-context.ts';
import { conflict, notFound } from './errors.ts';
import { toCachedOutput } from './views.ts';

type CacheCommands = 'cache.outputs' | 'cache.models' | 'cache.fetch' | 'cache.entries' | 'jobs.original';

export function cacheHandlers(ctx: BridgeContext): Handlers<CacheCommands> {
  return {
    'cache.outputs': async (i) => ({ outputs: outputsOf(ctx, i.sessionId) }),
    'cache.models': async () => ({
      models: cachedModels(ctx.services()).map(({ entry, format, job }) => ({
        sessionId: entry.sessionId,
        kind: entry.kind,
        format,
        url: ctx.platform.cacheUrl(entry.sessionId, entry.kind),
        size: entry.size,
        jobId: job?.id ?? null,
        // The list shows the format beside it.
        label: `${job?.label ?? entry.sessionId} · ${outputLabelOf(entry.kind, job, { format: false })}`,
      })),
    }),
    'cache.fetch': async (i) => {
      const job = jobOf(ctx, i.jobId);
      if (job.state !== 'succeeded' || job.remoteId === null)
        throw conflict(
          `"${job.label}" has no outputs to download: it is ${job.rawStatus || job.state}. Wait until it has succeeded.`,
        );
      // The formats as set now, not at start.
      await pullJobOutputs(ctx.services(), job, savedOutputFormats(ctx.session.settings));
      return { outputs: outputsOf(ctx, job.remoteId) };
    },
    'cache.entries': async (i) => {
      try {
        const entries = await cachedZipEntries(ctx.services().cache, i.sessionId, i.kind);
        const base = ctx.platform.cacheUrl(i.sessionId, i.kind);
        return {
          entries: entries.map((e) => ({
            ...e,
            url: `${base}/${e.name.split('/').map(encodeURIComponent).join('/')}`,
          })),
        };
      } catch (error) {
        if (!(error instanceof ZipEntryError)) throw error;
        throw error.status === 404 ? notFound(error.message) : conflict(error.message);
      }
    },
    'jobs.original': async (i) => findOriginal(ctx.services().store, jobOf(ctx, i.id)),
  };
}

function outputsOf(ctx: BridgeContext, sessionId: string): CommandOutput<'cache.outputs'>['outputs'] {
  const { cache } = ctx.services();
  return cache
    .list()
    .filter((e) => e.sessionId === sessionId)
    .map((e) => toCachedOutput(e, ctx.platform.cacheUrl, cache.formatOf(e)));
}
