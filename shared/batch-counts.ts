// The counts of a batch of files, from its items' states, and their sentence: the queue's table, its toast
// and main's `batch.done` all count with this one function, so they always say the same.

/** Every state an item of a batch can be in: the renderer's own (before main has the file), then main's. */
export const BATCH_ITEM_PHASES = [
  'waiting',
  'sending',
  'send_failed',
  'inspecting',
  'rejected',
  'queued',
  'uploading',
  'submitted',
  'failed',
  'cancelled',
] as const;
export type BatchItemPhase = (typeof BATCH_ITEM_PHASES)[number];

/** Not sent to the app, rejected by the check, or refused by the service. */
const PROBLEMS: readonly BatchItemPhase[] = ['send_failed', 'rejected', 'failed'];

export interface BatchCounts {
  /** Every file of the batch. */
  total: number;
  submitted: number;
  /** Files that were not submitted because of a problem with them or at the service. */
  problems: number;
  cancelled: number;
  /** Files still being sent, checked or submitted. */
  going: number;
}

export function countBatch(phases: readonly BatchItemPhase[]): BatchCounts {
  const of = (wanted: readonly BatchItemPhase[]) => phases.filter((p) => wanted.includes(p)).length;
  const submitted = of(['submitted']);
  const problems = of(PROBLEMS);
  const cancelled = of(['cancelled']);
  return {
    total: phases.length,
    submitted,
    problems,
    cancelled,
    going: phases.length - submitted - problems - cancelled,
  };
}

/** "3 of 5 files submitted, 1 with a problem, 1 cancelled" (and how many are still going). */
export function describeCounts(c: BatchCounts): string {
  const parts = [`${c.submitted} of ${c.total} file${c.total === 1 ? '' : 's'} submitted`];
  if (c.problems) parts.push(`${c.problems} with a problem`);
  if (c.cancelled) parts.push(`${c.cancelled} cancelled`);
  if (c.going) parts.push(`${c.going} still going`);
  return parts.join(', ');
}

/** A job of a batch as far as its counts need: its state and whether that state is final. */
export interface BatchJobState {
  state: string;
  final: boolean;
  /** How far a running job is, when the service says (the queue's bar of a submitted file). */
  percent?: number | null;
}

/**
 * What is known of a job of a batch: its state; `null` when it is no longer in the library (the user
 * deleted it: neither completed nor failed, it is counted as removed); `undefined` when it is not known yet.
 */
export type BatchJobSeen = BatchJobState | null | undefined;

/**
 * The jobs a batch made (an image-to-3D job per picture, an upload per FBX/zip and the job of its prompts):
 * how many wait at the service, run, completed, failed (or were cancelled). A batch is finished only when
 * every one of them is final; its files being submitted is not the end of it.
 */
export interface BatchJobCounts {
  total: number;
  queued: number;
  running: number;
  completed: number;
  /** Failed, cancelled, or final in another state than succeeded. */
  failed: number;
  /** Deleted from the library since it was submitted: it ends nothing, and failed nothing. */
  removed: number;
}

/** `undefined`: a job whose state is not known yet (counted as queued: it was just submitted); `null`: removed. */
export function countJobs(jobs: readonly BatchJobSeen[]): BatchJobCounts {
  const c: BatchJobCounts = { total: jobs.length, queued: 0, running: 0, completed: 0, failed: 0, removed: 0 };
  for (const job of jobs) {
    if (job === null) c.removed++;
    else if (job === undefined || (!job.final && job.state === 'queued')) c.queued++;
    else if (!job.final) c.running++;
    else if (job.state === 'succeeded') c.completed++;
    else c.failed++;
  }
  return c;
}

/** Every job of the batch has its final state. */
export const jobsFinished = (c: BatchJobCounts): boolean => c.queued + c.running === 0;

/**
 * "3 jobs (1 queued, 2 running)" while some go on; "3 jobs (2 completed, 1 failed)" once all are final;
 * "2 jobs (1 completed, 1 removed)" when one was deleted from the library.
 */
export function describeJobs(c: BatchJobCounts): string {
  if (c.total === 0) return 'no job';
  const parts = [
    c.queued && `${c.queued} queued`,
    c.running && `${c.running} running`,
    c.completed && `${c.completed} completed`,
    c.failed && `${c.failed} failed`,
    c.removed && `${c.removed} removed`,
  ].filter(Boolean);
  return `${c.total} job${c.total === 1 ? '' : 's'} (${parts.join(', ')})`;
}
