// The bridge's game-ready commands: the engine-fit check of a job's model, its real height, the review board's
// rows and approvals, and the request a job was made with (the board's "run again with other settings"); each a
// use case of main/app/fit-actions.ts; and one LOD level of a job's model for the viewer (main/app/export-actions.ts).
import { previewLod } from '../app/export-actions.ts';
import { checkJob, decideJob, reviewJobs, setJobHeight } from '../app/fit-actions.ts';
import { jobOf, type BridgeContext, type Handlers } from './bridge-context.ts';

type ReviewCommands =
  | 'check.run'
  | 'job.setSize'
  | 'review.list'
  | 'review.decide'
  | 'jobs.request'
  | 'export.lodPreview';

export function reviewHandlers(ctx: BridgeContext): Handlers<ReviewCommands> {
  return {
    'check.run': async (i) => checkJob(ctx.services(), ctx.session.settings, jobOf(ctx, i.jobId), i.profile),
    'job.setSize': async (i) => {
      const review = setJobHeight(ctx.services(), jobOf(ctx, i.jobId), i.heightM);
      return { jobId: review.jobId, heightM: review.heightM };
    },
    'review.list': async (i) =>
      reviewJobs(
        ctx.services(),
        ctx.session.settings,
        i.jobIds.map((id) => jobOf(ctx, id)),
        i.profile,
      ),
    'review.decide': async (i) => {
      const review = decideJob(ctx.services(), jobOf(ctx, i.jobId), i.decision);
      return { jobId: review.jobId, decision: review.decision };
    },
    'export.lodPreview': async (i) => {
      const { glb, levels, report } = await previewLod(ctx.services(), jobOf(ctx, i.jobId), i);
      const level = report.levels.find((l) => l.level === i.level);
      return {
        levels,
        triangles: level?.triangles ?? 0,
        error: level?.error ?? 0,
        glb: Buffer.from(glb).toString('base64'),
      };
    },
    'jobs.request': async (i) => {
      const job = jobOf(ctx, i.id);
      const entry = job.operationId ? ctx.services().store.journal.get(job.operationId) : undefined;
      return entry ? { endpoint: entry.endpoint, params: { ...entry.params }, body: entry.body } : null;
    },
  };
}
