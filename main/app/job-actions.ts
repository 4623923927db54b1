// Cancel, retry and reconcile jobs: the same use cases for the app (bridge) and the CLI.
// - Cancel stops following a job here: the service offers no cancel, so it may still finish there.
// - Retry sends a failed, cancelled or abandoned job's recorded request again, through the submission
//   journal, and never pays twice: a job whose own create may have reached the service (its answer was
//   lost) is reconciled first; each retry of a job is journaled under its own operation id
//   (`<job>_retry_<n>`), so retrying again while an earlier retry is unanswered replays that one (the
//   journal reconciles it) and while an earlier retry's job runs or has succeeded answers that job.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { EndpointId } from '../../shared/contract/index.ts';
import { conflict } from '../../shared/errors.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { JournalEntry } from '../store/journal.ts';
import type { SubmitOutcome } from '../jobs/submit.ts';
import { reconcileJournal, type ReconcileRequest, type ReconcileResult } from '../jobs/reconcile.ts';
import type { Services } from './services.ts';

/** The raw status of a job the user stopped following here (the lifecycle has no `cancelled`). */
export const CANCELLED_STATUS = 'cancelled_here';

export const CANCEL_MESSAGE =
  'You stopped following this job in Asset Studio. The service offers no way to cancel it, so it may still finish there (and use credits): find it in the service list, or retry it here to start again.';

/** Marks a job that has not ended as cancelled here and stops polling it; returns it as it is now. */
export function cancelJob(store: Store, job: JobRecord, now = Date.now()): JobRecord {
  if (job.final)
    throw conflict(`"${job.label}" has already ended (${job.rawStatus || job.state}): there is nothing to cancel.`);
  store.jobs.updateStatus(job.id, {
    state: 'failed',
    rawStatus: CANCELLED_STATUS,
    final: true,
    error: CANCEL_MESSAGE,
    now,
  });
  return store.jobs.schedule(job.id, null, now);
}

export interface RetryOutcome {
  /** The job of the retry: a new one, or the one an earlier retry of the same job made. */
  job: JobRecord;
  operationId: string;
  /** `replayed`: an earlier retry had already made it; `reconciled`: an earlier retry whose answer was lost was found. */
  status: SubmitOutcome['status'];
}

/** Jobs being sent again by this process: a second retry of one of them waits for the first's answer. */
const sending = new Set<string>();

/** `beforeSend`: called before a new request is sent (not for a replay), e.g. to show its price or refuse it (throw). */
export async function retryJob(
  services: Pick<Services, 'store' | 'submitter'>,
  job: JobRecord,
  options: { beforeSend?: (endpoint: EndpointId) => Promise<void> } = {},
): Promise<RetryOutcome> {
  const { store, submitter } = services;
  if (!job.final || job.state === 'succeeded')
    throw conflict(
      `"${job.label}" is ${job.rawStatus || job.state}: only a failed, cancelled or abandoned job can be retried.`,
    );
  const entry = job.operationId === null ? undefined : store.journal.get(job.operationId);
  if (!entry)
    throw conflict(
      `"${job.label}" has no recorded request to send again (it was found at the service, not created here). Create it again.`,
    );
  if (mayHaveBeenCreated(entry)) {
    throw conflict(
      `"${job.label}" may already exist at the service: the answer to its request (operation ${entry.operationId}) was lost, so sending it again could pay twice. ` +
        `Reconcile it first (Lost submissions in the app, or "asset-studio reconcile ${entry.operationId}"); once it is abandoned it can be retried.`,
    );
  }
  if (entry.filePath !== null && !existsSync(entry.filePath)) {
    throw conflict(
      `The file of "${job.label}" (${basename(entry.filePath)}) is no longer there. Drop it again to create a new job.`,
    );
  }
  if (sending.has(job.id)) throw conflict(`"${job.label}" is already being sent again. Wait for its answer.`);
  const attempt = lastAttempt(store, job);
  const earlier = attempt.entry?.jobId ? store.jobs.get(attempt.entry.jobId) : undefined;
  if (
    attempt.entry &&
    !mayHaveBeenCreated(attempt.entry) &&
    earlier &&
    !(earlier.final && earlier.state !== 'succeeded')
  ) {
    return { job: earlier, operationId: attempt.entry.operationId, status: 'replayed' };
  }
  // An unanswered earlier retry is replayed (the journal reconciles it, never sends it twice); else a new one.
  const operationId =
    attempt.entry && mayHaveBeenCreated(attempt.entry)
      ? attempt.entry.operationId
      : retryOperationId(job, attempt.next);
  const args = { params: entry.params, ...(entry.filePath === null ? { body: entry.body } : { file: entry.filePath }) };
  sending.add(job.id);
  try {
    if (options.beforeSend && operationId !== attempt.entry?.operationId) await options.beforeSend(entry.endpoint);
    const outcome = await submitter.submit(entry.endpoint, args, {
      label: job.label,
      operationId,
      parentId: job.parentId ?? undefined,
      fileHash: entry.fileHash ?? undefined,
    });
    if (!outcome.job)
      throw conflict(
        `The request of "${job.label}" was sent again (operation ${outcome.operationId}) but creates nothing that can be followed.`,
      );
    return { job: outcome.job, operationId: outcome.operationId, status: outcome.status };
  } finally {
    sending.delete(job.id);
  }
}

/** Sent, with no answer recorded: the service may have created it. */
function mayHaveBeenCreated(entry: JournalEntry): boolean {
  return entry.state === 'pending' || entry.state === 'unknown';
}

/** The operation id of the `n`th retry of a job. */
export function retryOperationId(job: Pick<JobRecord, 'id'>, n: number): string {
  return `${job.id}_retry_${n}`;
}

/** The journal entry of the latest retry of `job` (if any), and the number of the next one. */
function lastAttempt(store: Store, job: JobRecord): { entry?: JournalEntry; next: number } {
  let entry: JournalEntry | undefined;
  let n = 1;
  for (
    let found = store.journal.get(retryOperationId(job, n));
    found;
    found = store.journal.get(retryOperationId(job, ++n))
  )
    entry = found;
  return { ...(entry && { entry }), next: n };
}

/**
 * Lost submissions (created here, their answer lost): each searched for at the service, attached to the
 * session the user found, or abandoned (main/jobs/reconcile.ts), for the CLI's `reconcile` and the app alike.
 */
export function reconcileSubmissions(
  services: Pick<Services, 'store' | 'client' | 'tracker'>,
  request: ReconcileRequest,
): Promise<ReconcileResult[]> {
  const { store, client, tracker } = services;
  return reconcileJournal({ store, client, tracker }, request);
}
