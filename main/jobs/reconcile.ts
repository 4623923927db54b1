// Reconciles a create whose answer was lost with what the service actually did.
// - image-to-3D creates: the list endpoint is searched for a session created around the time the
//   request was sent, not known locally, with the same options and the same input image (compared
//   by content: the service may host an uploaded image under its own URL; see lost-create-search.ts);
// - preview / refine / spin: the session itself shows whether the step was accepted;
// - anything else (no list endpoint exists): the user decides.
// Exactly one sure match attaches the job to it; several, or only unsure ones, are left to the user,
// with the candidates written on the job and shown by `reconcile`.
import type { EndpointId } from '../../shared/contract/index.ts';
import { AppError } from '../../shared/errors.ts';
import type { ServiceClient } from '../api/client.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import { type JournalEntry, UNNAMED_WRITER_MS, writerGone } from '../store/journal.ts';
import { recoverLostSubmissions } from './lost-submissions.ts';
import { searchLostCreate, type Candidate } from './lost-create-search.ts';
import { refOfCreate } from './resources.ts';
import type { JobTracker } from './tracker.ts';

export { MATCH_WINDOW_MS, type Candidate } from './lost-create-search.ts';

export interface ReconcileDeps {
  store: Store;
  client: ServiceClient;
  tracker: JobTracker;
  now?: () => number;
}

export type ReconcileOutcome =
  | { status: 'reconciled'; job: JobRecord; remoteId: string }
  /** Several sessions may be it, or some could not be compared: the user picks (or abandons). */
  | { status: 'ambiguous'; candidates: Candidate[] }
  /** `ruledOut`: sessions created around then that are not it (another image or other options). */
  | { status: 'not-found'; ruledOut?: number }
  | { status: 'unsupported'; reason: string };

export async function reconcileOperation(deps: ReconcileDeps, entry: JournalEntry): Promise<ReconcileOutcome> {
  switch (entry.endpoint) {
    case 'createImageTo3d':
    case 'createImageTo3dLegacy': {
      const outcome = await searchList(deps, entry, (deps.now ?? Date.now)());
      noteOnJob(deps, entry, outcome);
      return outcome;
    }
    case 'preview':
    case 'refine':
    case 'submitSpin':
      return checkStep(deps, entry);
    default:
      return { status: 'unsupported', reason: `the service offers no way to list what ${entry.endpoint} creates` };
  }
}

/** Attaches the lost operation (and its job) to a session the user or a search named. */
export function attachOperation(deps: ReconcileDeps, entry: JournalEntry, remoteId: string): JobRecord {
  const now = (deps.now ?? Date.now)();
  const { store, tracker } = deps;
  store.journal.markReconciled(entry.operationId, remoteId, now);
  let job = entry.jobId ? store.jobs.get(entry.jobId) : undefined;
  if (job) {
    const note = job.error;
    job = store.jobs.attachRemote(job.id, remoteId, now);
    if (note !== null)
      job = store.jobs.updateStatus(job.id, {
        state: job.state,
        rawStatus: job.rawStatus,
        percent: job.percent,
        final: job.final,
        error: null,
        now,
      });
  } else {
    const ref = refOfCreate(
      entry.endpoint,
      { params: entry.params, body: entry.body },
      { session_code: remoteId, _id: remoteId },
    );
    if (!ref) throw new Error(`${entry.endpoint} creates nothing that can be tracked`);
    job = tracker.track({ ...ref, label: remoteId, operationId: entry.operationId });
    store.journal.linkJob(entry.operationId, job.id);
  }
  tracker.wake(remoteId);
  return job;
}

async function searchList(deps: ReconcileDeps, entry: JournalEntry, now: number): Promise<ReconcileOutcome> {
  const { sure, unsure, ruledOut } = await searchLostCreate(deps, entry, now);
  if (sure.length === 1 && unsure.length === 0) {
    const remoteId = sure[0]!.sessionCode;
    return { status: 'reconciled', remoteId, job: attachOperation(deps, entry, remoteId) };
  }
  if (sure.length === 0 && unsure.length === 0) return { status: 'not-found', ruledOut: ruledOut.length };
  return { status: 'ambiguous', candidates: [...sure, ...unsure] };
}

const CREATES: ReadonlySet<EndpointId> = new Set(['createImageTo3d', 'createImageTo3dLegacy']);

/** What to do about a lost create that was not reconciled, naming the candidates: shown on its job and by `reconcile`. */
export function adviceFor(entry: JournalEntry, outcome: ReconcileOutcome): string | undefined {
  const op = entry.operationId;
  const abandon = `"asset-studio reconcile ${op} --abandon"`;
  if (outcome.status === 'ambiguous') {
    const list = outcome.candidates.map((c) => `${c.sessionCode} (created ${c.createdAt}; ${c.note})`).join(', ');
    const which =
      outcome.candidates.length === 1
        ? 'One session at the service may be it, but it could not be confirmed'
        : `${outcome.candidates.length} sessions at the service may be it`;
    return (
      `The answer to this create was lost. ${which}: ${list}. ` +
      `Attach the right one with "asset-studio reconcile ${op} --session <session_code>", or run ${abandon} if none is (then create it again).`
    );
  }
  if (outcome.status === 'not-found' && !CREATES.has(entry.endpoint)) {
    return `The answer to this ${entry.endpoint} request was lost and the session shows no sign that it started. Run "asset-studio reconcile" again later, or ${abandon} and send it again.`;
  }
  if (outcome.status === 'not-found') {
    const others = outcome.ruledOut
      ? ` (${outcome.ruledOut} created around then have another input image or other options)`
      : '';
    return (
      `The answer to this create was lost and no session at the service matches it${others}. ` +
      `Run "asset-studio reconcile" again later; if it is still not found, run ${abandon} and create it again.`
    );
  }
  if (outcome.status === 'unsupported')
    return `The answer to this request was lost and ${outcome.reason}: find it yourself, then run "asset-studio reconcile ${op} --session <code>", or ${abandon}.`;
  return undefined;
}

/** Writes the advice (with the candidates) on the job of a lost create that is still unknown. */
function noteOnJob(deps: ReconcileDeps, entry: JournalEntry, outcome: ReconcileOutcome): void {
  const advice = adviceFor(entry, outcome);
  const job = entry.jobId ? deps.store.jobs.get(entry.jobId) : undefined;
  if (advice === undefined || job?.state !== 'submission_unknown') return;
  const now = (deps.now ?? Date.now)();
  const noted = deps.store.jobs.updateStatus(job.id, {
    state: job.state,
    rawStatus: job.rawStatus,
    percent: job.percent,
    final: job.final,
    error: advice,
    now,
  });
  deps.tracker.emit('progress', noted); // so the library shows the candidates
}

const STEP_STARTED: Partial<Record<EndpointId, RegExp>> = {
  submitSpin: /^spin_generate_processing$/, // a finished spin may be older than the lost request
  preview: /^(training_preview|preview_|refine_)/,
  refine: /^refine_/,
};

/** A step of the older flow was accepted when the session's status moved into that step. */
async function checkStep(deps: ReconcileDeps, entry: JournalEntry): Promise<ReconcileOutcome> {
  const code = entry.params.session_code ?? (entry.body as { session_code?: string } | null)?.session_code;
  if (!code) return { status: 'unsupported', reason: 'the operation names no session' };
  const records = await deps.client.getMesh(code);
  const status = records[0]?.status ?? '';
  if (STEP_STARTED[entry.endpoint]!.test(status))
    return { status: 'reconciled', remoteId: code, job: attachOperation(deps, entry, code) };
  return { status: 'not-found' };
}

export interface ReconcileRequest {
  /** One operation; all unresolved ones when omitted. */
  operationId?: string | undefined;
  /** With operationId: the user found it at the service. */
  sessionCode?: string | undefined;
  /** With operationId: the user says it was never created. */
  abandon?: boolean | undefined;
}

export interface ReconcileResult {
  operationId: string;
  /** `reconciled with SESSION_x`, `abandoned`, `ambiguous`, `needs you: …`, `not found at the service`. */
  outcome: string;
  reconciled: boolean;
  candidates?: Candidate[];
  /** When not reconciled: what to do, naming the candidates. */
  advice?: string;
  /** The job whose state changed, if any. */
  job?: JobRecord;
}

export class UnknownOperationError extends AppError<'unknown-operation'> {
  constructor(message: string) {
    super('unknown-operation', message);
  }
}

/**
 * What `reconcile` does, for the CLI and the UI alike: search, attach to a session, or abandon. Creates whose
 * sender died on the wire become jobs first (lost-submissions.ts); a row still being sent by a live process is
 * left to it; a row that fails (the service unreachable, a row that cannot move) is reported as its result and
 * the others go on.
 */
export async function reconcileJournal(deps: ReconcileDeps, request: ReconcileRequest): Promise<ReconcileResult[]> {
  const { store } = deps;
  if (request.operationId === undefined && (request.sessionCode !== undefined || request.abandon)) {
    throw new UnknownOperationError('Name the operation to attach or abandon (its id is shown by "reconcile").');
  }
  const now = (deps.now ?? Date.now)();
  for (const job of recoverLostSubmissions(store, { now })) deps.tracker.emit('job-added', job);
  const entries =
    request.operationId === undefined ? store.journal.listUnresolved() : [store.journal.get(request.operationId)];
  const results: ReconcileResult[] = [];
  for (const entry of entries) {
    if (!entry)
      throw new UnknownOperationError(
        `There is no journaled operation ${request.operationId}. Run "reconcile" without an id to see the open ones.`,
      );
    try {
      results.push(await reconcileEntry(deps, entry, request, now));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({
        operationId: entry.operationId,
        outcome: `failed: ${message}`,
        reconciled: false,
        advice: `It could not be reconciled now (${message}). Run "asset-studio reconcile" again later.`,
      });
    }
  }
  return results;
}

async function reconcileEntry(
  deps: ReconcileDeps,
  entry: JournalEntry,
  request: ReconcileRequest,
  now: number,
): Promise<ReconcileResult> {
  const { store } = deps;
  const operationId = entry.operationId;
  if (entry.state === 'pending' && !writerGone(entry, now - UNNAMED_WRITER_MS)) {
    const who = entry.writer === null ? 'another process' : `process ${entry.writer.split('@')[0]}`;
    return {
      operationId,
      outcome: `being sent by ${who}`,
      reconciled: false,
      advice: `It is still being sent by ${who}; its answer will say what the service made. Nothing was changed.`,
    };
  }
  if (request.sessionCode !== undefined) {
    const job = attachOperation(deps, entry, request.sessionCode);
    return { operationId, outcome: `reconciled with ${request.sessionCode}`, reconciled: true, job };
  }
  if (request.abandon) {
    store.journal.markAbandoned(operationId, now);
    const job = entry.jobId
      ? store.jobs.updateStatus(entry.jobId, {
          state: 'failed',
          rawStatus: 'abandoned',
          final: true,
          error: 'The submission was abandoned: the service did not create it. Create it again if you still need it.',
          now,
        })
      : undefined;
    return { operationId, outcome: 'abandoned', reconciled: true, ...(job && { job }) };
  }
  const outcome = await reconcileOperation(deps, entry);
  const advice = adviceFor(entry, outcome);
  const open = { operationId, reconciled: false, ...(advice !== undefined && { advice }) };
  if (outcome.status === 'reconciled')
    return { operationId, outcome: `reconciled with ${outcome.remoteId}`, reconciled: true, job: outcome.job };
  if (outcome.status === 'ambiguous') return { ...open, outcome: 'ambiguous', candidates: outcome.candidates };
  if (outcome.status === 'unsupported') return { ...open, outcome: `needs you: ${outcome.reason}` };
  return { ...open, outcome: 'not found at the service' };
}
