// Reconciles a create whose answer was lost with what the service actually did.
// - image-to-3D creates: the list endpoint is searched for a session created around the time the
//   request was sent, with the same input image, that no local job knows yet;
// - preview / refine / spin: the session itself shows whether the step was accepted;
// - anything else (no list endpoint exists): the user decides.
// Exactly one match attaches the job to it; several or none are left to the user.
import type { EndpointId, ImageTo3dSessionOlder } from '../../shared/contract/index.ts';
import type { ServiceClient } from '../api/client.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { JournalEntry } from '../store/journal.ts';
import { refOfCreate } from './resources.ts';
import type { JobTracker } from './tracker.ts';

export interface ReconcileDeps {
  store: Store;
  client: ServiceClient;
  tracker: JobTracker;
  now?: () => number;
}

export interface Candidate {
  sessionCode: string;
  createdAt: string;
  status: string;
}

export type ReconcileOutcome =
  | { status: 'reconciled'; job: JobRecord; remoteId: string }
  | { status: 'ambiguous'; candidates: Candidate[] }
  | { status: 'not-found' }
  | { status: 'unsupported'; reason: string };

/** How far the service's clock and the time of sending may differ when matching by creation time. */
export const MATCH_WINDOW_MS = 5 * 60_000;
const LIST_PAGES = 5;
const PAGE_SIZE = 100;

export async function reconcileOperation(deps: ReconcileDeps, entry: JournalEntry): Promise<ReconcileOutcome> {
  switch (entry.endpoint) {
    case 'createImageTo3d':
    case 'createImageTo3dLegacy':
      return searchList(deps, entry, (deps.now ?? Date.now)());
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
    job = store.jobs.attachRemote(job.id, remoteId, now);
  } else {
    const ref = refOfCreate(entry.endpoint, { params: entry.params, body: entry.body }, { session_code: remoteId, _id: remoteId });
    if (!ref) throw new Error(`${entry.endpoint} creates nothing that can be tracked`);
    job = tracker.track({ ...ref, label: remoteId, operationId: entry.operationId });
    store.journal.linkJob(entry.operationId, job.id);
  }
  tracker.wake(remoteId);
  return job;
}

async function searchList(deps: ReconcileDeps, entry: JournalEntry, now: number): Promise<ReconcileOutcome> {
  const sentAt = entry.sentAt ?? entry.createdAt;
  const from = sentAt - MATCH_WINDOW_MS;
  const to = (entry.answeredAt ?? now) + MATCH_WINDOW_MS;
  const image = (entry.body as { image_url?: string } | null)?.image_url;
  const matches: ImageTo3dSessionOlder[] = [];
  for (let page = 1; page <= LIST_PAGES; page++) {
    const list = await deps.client.listImageTo3d({ limit: PAGE_SIZE, page });
    for (const s of list.results) {
      const created = Date.parse(s.created_at);
      if (!(created >= from && created <= to)) continue;
      if (deps.store.jobs.findByRemoteId(s.session_code)) continue; // already ours
      if (image !== undefined && !sameImage(image, s)) continue;
      matches.push(s);
    }
    const oldest = list.results.at(-1);
    if (page >= list.totalPages || (oldest && Date.parse(oldest.created_at) < from)) break; // newest first
  }
  if (matches.length === 1) {
    const remoteId = matches[0]!.session_code;
    return { status: 'reconciled', remoteId, job: attachOperation(deps, entry, remoteId) };
  }
  if (matches.length === 0) return { status: 'not-found' };
  return { status: 'ambiguous', candidates: matches.map((s) => ({ sessionCode: s.session_code, createdAt: s.created_at, status: s.status })) };
}

/** The service may keep a data URI as given or store the image and answer with its own URL. */
function sameImage(image: string, s: ImageTo3dSessionOlder): boolean {
  const seen = [s.image_url, s.input_image, s.user_image].filter((u) => u !== '');
  if (image.startsWith('data:')) return seen.length === 0 || seen.some((u) => u === image || !u.startsWith('data:'));
  return seen.includes(image);
}

const STEP_STARTED: Partial<Record<EndpointId, RegExp>> = {
  submitSpin: /^spin_generate_processing$/, // a finished spin may be older than the lost request
  preview: /^(preview_|refine_)/,
  refine: /^refine_/,
};

/** A step of the older flow was accepted when the session's status moved into that step. */
async function checkStep(deps: ReconcileDeps, entry: JournalEntry): Promise<ReconcileOutcome> {
  const code = entry.params.session_code ?? (entry.body as { session_code?: string } | null)?.session_code;
  if (!code) return { status: 'unsupported', reason: 'the operation names no session' };
  const records = await deps.client.getMesh(code);
  const status = records[0]?.status ?? '';
  if (STEP_STARTED[entry.endpoint]!.test(status)) return { status: 'reconciled', remoteId: code, job: attachOperation(deps, entry, code) };
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
  /** The job whose state changed, if any. */
  job?: JobRecord;
}

export class UnknownOperationError extends Error {
  readonly exitCode = 2;
}

/** What `reconcile` does, for the CLI and the UI alike: search, attach to a session, or abandon. */
export async function reconcileJournal(deps: ReconcileDeps, request: ReconcileRequest): Promise<ReconcileResult[]> {
  const { store } = deps;
  if (request.operationId === undefined && (request.sessionCode !== undefined || request.abandon)) {
    throw new UnknownOperationError('Name the operation to attach or abandon (its id is shown by "reconcile").');
  }
  const entries = request.operationId === undefined ? store.journal.listUnresolved() : [store.journal.get(request.operationId)];
  const results: ReconcileResult[] = [];
  for (const entry of entries) {
    if (!entry) throw new UnknownOperationError(`There is no journaled operation ${request.operationId}. Run "reconcile" without an id to see the open ones.`);
    const operationId = entry.operationId;
    if (request.sessionCode !== undefined) {
      const job = attachOperation(deps, entry, request.sessionCode);
      results.push({ operationId, outcome: `reconciled with ${request.sessionCode}`, reconciled: true, job });
    } else if (request.abandon) {
      const now = (deps.now ?? Date.now)();
      store.journal.markAbandoned(operationId, now);
      const job = entry.jobId
        ? store.jobs.updateStatus(entry.jobId, { state: 'failed', rawStatus: 'abandoned', final: true, error: 'The submission was abandoned: the service did not create it. Create it again if you still need it.', now })
        : undefined;
      results.push({ operationId, outcome: 'abandoned', reconciled: true, ...(job && { job }) });
    } else {
      const outcome = await reconcileOperation(deps, entry);
      if (outcome.status === 'reconciled') results.push({ operationId, outcome: `reconciled with ${outcome.remoteId}`, reconciled: true, job: outcome.job });
      else if (outcome.status === 'ambiguous') results.push({ operationId, outcome: 'ambiguous', reconciled: false, candidates: outcome.candidates });
      else if (outcome.status === 'unsupported') results.push({ operationId, outcome: `needs you: ${outcome.reason}`, reconciled: false });
      else results.push({ operationId, outcome: 'not found at the service', reconciled: false });
    }
  }
  return results;
}
