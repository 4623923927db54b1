// The bridge's job commands: the library (list, rename, delete, thumbnails), a job's actions (cancel, retry,
// reconcile), creates, the service's session list and the balance; each a use case of main/app.
import type { CommandOutput } from '../../shared/bridge/contract.ts';
import { creditsView } from '../app/costs.ts';
import type { SendingCreates } from '../app/create-job.ts';
import { cancelJob, reconcileSubmissions, retryJob } from '../app/job-actions.ts';
import { deleteFromLibrary, entryRows, listLibrary, renameJob } from '../app/library-actions.ts';
import { listServiceSessions } from '../app/service-sessions.ts';
import { cachedPicture, thumbnailsOf } from '../app/thumbnails.ts';
import type { JobRecord } from '../store/jobs.ts';
import { jobOf, pictureUrl, type BridgeContext, type Handlers } from './bridge-context.ts';
import { notFound, toBridgeError } from './errors.ts';
import { toJobView } from './views.ts';

type JobCommands = 'jobs.list' | 'jobs.rename' | 'jobs.delete' | 'jobs.thumbnail' | 'jobs.get' | 'jobs.cancel';
type MoreJobCommands = 'jobs.retry' | 'jobs.reconcile' | 'sessions.list' | 'credits.get' | 'create';

/** `creates`: the creates still sending (jobs.cancel cuts them off). */
export function jobHandlers(ctx: BridgeContext, creates: SendingCreates): Handlers<JobCommands | MoreJobCommands> {
  const { events } = ctx;
  const job = (id: string) => jobOf(ctx, id);
  return {
    'jobs.list': async ({ limit, offset, sort, ...query }) => {
      const page = listLibrary(ctx.services().store, { ...query, sort, limit, offset });
      return { jobs: page.jobs.map((j) => libraryView(ctx, j, query.group === true)), total: page.total };
    },
    'jobs.rename': async (i) => {
      const renamed = renameJob(ctx.services().store, job(i.id), i.name);
      events.emit('job', toJobView(renamed));
      return libraryView(ctx, renamed, true);
    },
    'jobs.delete': async (i) =>
      deleteFromLibrary(
        ctx.services(),
        i.ids.map((id) => job(id)),
      ),
    'jobs.thumbnail': async (i) => {
      const { cache, store } = ctx.services();
      const answer = await thumbnailsOf(cache, store).ensure(job(i.id));
      return { url: answer.entry ? pictureUrl(ctx, answer.entry) : null, reason: answer.reason };
    },
    'jobs.get': async (i) => toJobView(job(i.id)),
    'jobs.cancel': async (i) => {
      if (creates.abort(i.id)) return null; // a create still sending its file: cut off, nothing created
      const stopped = toJobView(cancelJob(ctx.services().store, job(i.id)));
      events.emit('job', stopped);
      return stopped;
    },
    'jobs.retry': async (i) => toJobView((await retryJob(ctx.services(), job(i.id))).job),
    'jobs.reconcile': async (i) => {
      const services = ctx.services();
      if (i.operationId !== undefined && !services.store.journal.get(i.operationId)) {
        throw notFound(`There is no recorded operation ${i.operationId}. Refresh the list of lost submissions.`);
      }
      const results = await reconcileSubmissions(services, i);
      for (const r of results) if (r.job) events.emit('job', toJobView(r.job));
      return {
        results: results.map((r) => ({
          operationId: r.operationId,
          outcome: r.outcome,
          ...(r.candidates && { candidates: r.candidates }),
        })),
      };
    },
    'sessions.list': async (i) => listServiceSessions(ctx.services(), i.page, i.limit),
    'credits.get': async () =>
      creditsView(ctx.services(), (error) => toBridgeError(error, [...ctx.session.secrets]).message),
    create: async (i) => {
      const file = i.file && ctx.platform.resolveFile(i.file);
      // Progress of sending the file to the service (a large FBX takes a while), a few times a second.
      const onUpload = (operationId: string, p: { sent: number; total: number }) => {
        if (events.due(`create:${operationId}`, p.sent === p.total))
          events.emit('create.upload', { operationId, sent: p.sent, total: p.total });
      };
      const outcome = await creates.create(ctx.services(), { ...i, file }, onUpload);
      return {
        operationId: outcome.operationId,
        status: outcome.status,
        ...(outcome.job && { job: toJobView(outcome.job) }),
      };
    },
  };
}

/** A job as the library lists it: with its cached picture and, grouped, the steps of its session (older flow, animation). */
function libraryView(ctx: BridgeContext, job: JobRecord, group: boolean): CommandOutput<'jobs.get'> {
  const store = ctx.services().store;
  const picture = cachedPicture(store, job.remoteId);
  // A group's rows (entryRows: the job alone when it is none). An older-flow session lists its steps even when it
  // has one; an animation session without prompts yet is one row: no steps to list.
  const rows = group ? entryRows(store, job) : undefined;
  const older = job.kind === 'image_to_3d_older' && job.remoteId !== null;
  const steps = rows && (rows.length > 1 || older) ? rows : undefined;
  return {
    ...toJobView(job),
    thumbnail: picture ? pictureUrl(ctx, picture) : null,
    ...(steps && { steps: steps.map(toJobView) }),
  };
}
