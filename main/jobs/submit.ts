// Creates at the service go through the submission journal: written before they are sent, updated
// when the answer arrives. A create whose answer was lost becomes `submission_unknown` and is never
// sent again on its own: it is reconciled against the service (see reconcile.ts) or left to the user.
import type { EndpointId } from '../../shared/contract/index.ts';
import { canFollow, jobStatus, refOfCreate as jobOfCreate, type KindRef } from '../../shared/kinds/index.ts';
import type { CallArgs, PreparedCall, ServiceClient } from '../api/client.ts';
import { ApiError, neverSent, ServiceResponseError } from '../api/errors.ts';
import { AppError } from '../../shared/errors.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import { bodyHash, type JournalEntry, UNNAMED_WRITER_MS, writerGone } from '../store/journal.ts';
import { recoverLostSubmissions } from './lost-submissions.ts';
import { reconcileOperation, type Candidate } from './reconcile.ts';
import { withSelectedSpin } from './selected-spin.ts';
import type { JobTracker } from './tracker.ts';

export type SubmitOutcome =
  | { status: 'created'; operationId: string; data: unknown; job?: JobRecord }
  /** The operation id was journaled before: its result is returned, nothing is sent. */
  | { status: 'replayed'; operationId: string; data: unknown; job?: JobRecord }
  /** The answer was lost but the session was found at the service. */
  | { status: 'reconciled'; operationId: string; job: JobRecord };

/** The answer to a create was lost: the service may or may not have created it. */
export class SubmissionUnknownError extends AppError<'submission-unknown'> {
  readonly operationId: string;
  readonly jobId: string | undefined;

  /** Sessions at the service that may be the one it created (the search could not pick one for sure). */
  readonly candidates: readonly Candidate[];

  constructor(operationId: string, jobId: string | undefined, cause: string, candidates: readonly Candidate[] = []) {
    const found =
      candidates.length === 0
        ? 'Run "asset-studio reconcile" to look for it at the service; ' +
          `if it is not found, run "asset-studio reconcile ${operationId} --abandon" and create it again.`
        : `Sessions at the service that may be it: ${candidates.map((c) => `${c.sessionCode} (created ${c.createdAt}; ${c.note})`).join(', ')}. ` +
          `Attach the right one with "asset-studio reconcile ${operationId} --session <session_code>", ` +
          `or run "asset-studio reconcile ${operationId} --abandon" if none is.`;
    super(
      'submission-unknown',
      `The answer to operation ${operationId} was lost (${cause}), so the service may or may not have created it. It was NOT sent again, to avoid paying twice. ${found}`,
    );
    this.operationId = operationId;
    this.jobId = jobId;
    this.candidates = candidates;
  }
}

/** An operation id reused with a different request, or in a state that cannot be replayed. */
export class OperationConflictError extends AppError<'operation-conflict'> {
  constructor(message: string) {
    super('operation-conflict', message);
  }
}

export interface SubmitOptions {
  label: string;
  /** Replays the journaled operation with this id instead of creating a new one (or creates it under this id). */
  operationId?: string | undefined;
  parentId?: string | undefined;
  /** sha256 of the uploaded file, recorded in the journal with its path. */
  fileHash?: string | undefined;
}

export class Submitter {
  readonly #store: Store;
  readonly #client: ServiceClient;
  readonly #tracker: JobTracker;
  readonly #now: () => number;

  constructor(deps: { store: Store; client: ServiceClient; tracker: JobTracker; now?: () => number }) {
    this.#store = deps.store;
    this.#client = deps.client;
    this.#tracker = deps.tracker;
    this.#now = deps.now ?? Date.now;
  }

  async submit(endpoint: EndpointId, args: CallArgs, options: SubmitOptions): Promise<SubmitOutcome> {
    const journal = this.#store.journal;
    // A preview asked by spin index also names the spin's URL, as the official SDK does (not on a replay:
    // the journaled request is the one compared).
    const previous = options.operationId === undefined ? undefined : journal.get(options.operationId);
    if (endpoint === 'preview' && !previous) {
      this.#client.prepare(endpoint, args); // a bad request is refused before anything is read
      args = await withSelectedSpin(this.#client, args);
    }
    const prepared = this.#client.prepare(endpoint, args);
    const hash = bodyHash(endpoint, prepared.params, prepared.body ?? null);
    if (previous) return this.#replay(previous, hash);
    const entry = journal.begin({
      ...(options.operationId !== undefined && { operationId: options.operationId }),
      endpoint,
      params: prepared.params,
      body: prepared.body ?? null,
      filePath: prepared.file ?? null,
      fileHash: options.fileHash ?? null,
      label: options.label,
      now: this.#now(),
    });
    const op = entry.operationId;
    journal.markSent(op, this.#now());
    let data: unknown;
    try {
      data = await this.#client.send(prepared);
    } catch (error) {
      if (!lostAnswer(error)) {
        journal.markRejected(op, error instanceof Error ? error.message : String(error), this.#now());
        throw error;
      }
      return this.#onLostAnswer(journal.get(op)!, prepared, options, (error as Error).message);
    }
    const ref = jobOfCreate(endpoint, prepared, data);
    journal.markAnswered(op, ref?.id ?? remoteIdOf(data), this.#now());
    if (!ref || !canFollow(ref.kind))
      return { status: 'created', operationId: op, data, ...(ref && this.#recordUnfollowable(ref, op, options, data)) };
    const job = this.#tracker.track({
      ...ref,
      label: options.label,
      operationId: op,
      parentId: options.parentId ?? null,
      initial: data,
    });
    journal.linkJob(op, job.id);
    return { status: 'created', operationId: op, data, job };
  }

  /** A job that cannot be read back (a style): recorded with the status the create answered, never polled. */
  #recordUnfollowable(ref: KindRef, operationId: string, options: SubmitOptions, data: unknown): { job: JobRecord } {
    const status = jobStatus(ref, data);
    const job = this.#store.jobs.insert({
      kind: ref.kind,
      label: options.label,
      remoteId: ref.id,
      operationId,
      origin: this.#tracker.origin,
      state: status.state,
      rawStatus: status.raw,
      final: status.final,
      result: data,
      nextPollAt: null,
      now: this.#now(),
    });
    this.#store.journal.linkJob(operationId, job.id);
    this.#tracker.emit('job-added', job);
    return { job };
  }

  async #replay(previous: JournalEntry, hash: string): Promise<SubmitOutcome> {
    const op = previous.operationId;
    if (previous.bodyHash !== hash) {
      throw new OperationConflictError(
        `Operation ${op} was journaled with a different request. Use a new --operation-id for a new request.`,
      );
    }
    const job = previous.jobId ? this.#store.jobs.get(previous.jobId) : undefined;
    if (previous.state === 'answered' || previous.state === 'reconciled') {
      return {
        status: 'replayed',
        operationId: op,
        data: job?.result ?? { id: previous.remoteId },
        ...(job && { job }),
      };
    }
    if (previous.state === 'pending' && !writerGone(previous, this.#now() - UNNAMED_WRITER_MS)) {
      throw new OperationConflictError(
        `Operation ${op} is being sent by another process (${previous.writer?.split('@')[0] ?? 'unknown'}) now: its answer will say what the service made. Try again once it has ended.`,
      );
    }
    if (previous.state === 'pending' || previous.state === 'unknown') {
      // A writer that died: its row becomes unknown, with a job, before it is looked for (lost-submissions.ts).
      if (previous.state === 'pending')
        for (const job of recoverLostSubmissions(this.#store, { now: this.#now() }))
          this.#tracker.emit('job-added', job);
      const current = this.#store.journal.get(op) ?? previous;
      const outcome = await reconcileOperation(
        { store: this.#store, client: this.#client, tracker: this.#tracker, now: this.#now },
        current,
      );
      if (outcome.status === 'reconciled') return { status: 'reconciled', operationId: op, job: outcome.job };
      throw new SubmissionUnknownError(
        op,
        current.jobId ?? undefined,
        previous.error ?? 'no answer was recorded',
        outcome.status === 'ambiguous' ? outcome.candidates : [],
      );
    }
    throw new OperationConflictError(
      `Operation ${op} is ${previous.state}${previous.error ? ` (${previous.error})` : ''}: nothing was created. Submit again with a new --operation-id or without one.`,
    );
  }

  async #onLostAnswer(
    entry: JournalEntry,
    prepared: PreparedCall,
    options: SubmitOptions,
    cause: string,
  ): Promise<SubmitOutcome> {
    const now = this.#now();
    // What the job would have been, without the remote id that the lost answer carried.
    const expected = jobOfCreate(entry.endpoint, prepared, {});
    const job = this.#store.jobs.insert({
      kind: expected?.kind ?? 'image_to_3d',
      step: expected?.step ?? null,
      texts: expected?.texts ?? null,
      label: options.label,
      operationId: entry.operationId,
      parentId: options.parentId ?? null,
      origin: this.#tracker.origin,
      state: 'submission_unknown',
      rawStatus: 'submission_unknown',
      now,
    });
    this.#store.journal.markUnknown(entry.operationId, cause, now);
    this.#store.journal.linkJob(entry.operationId, job.id);
    this.#tracker.emit('job-added', job);
    const outcome = await reconcileOperation(
      { store: this.#store, client: this.#client, tracker: this.#tracker, now: this.#now },
      this.#store.journal.get(entry.operationId)!,
    ).catch(() => undefined);
    if (outcome?.status === 'reconciled')
      return { status: 'reconciled', operationId: entry.operationId, job: outcome.job };
    throw new SubmissionUnknownError(
      entry.operationId,
      job.id,
      cause,
      outcome?.status === 'ambiguous' ? outcome.candidates : [],
    );
  }
}

/**
 * Did the request perhaps reach the service and create something, with its answer lost?
 * No when the service answered with a refusal, or the request never left this machine.
 */
export function lostAnswer(error: unknown): boolean {
  if (!(error instanceof ApiError) || neverSent(error)) return false;
  // A 400 with no reason but "try again" may hide a failure after the work was done: the journal decides.
  if (error instanceof ServiceResponseError) return [500, 502, 504].includes(error.status) || error.bareRefusal;
  // Sent, and then no answer, a cut one, one that is no answer of the service's, or cancelled while it went.
  return true;
}

function remoteIdOf(data: unknown): string | null {
  const d = (data ?? {}) as Record<string, unknown>;
  const id = d.session_code ?? d.style_id ?? d._id;
  return typeof id === 'string' ? id : null;
}
