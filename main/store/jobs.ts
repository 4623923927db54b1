// Table `jobs`: one row per tracked job (every resource type; each step of the older
// image-to-3D flow is its own row). Times are epoch milliseconds.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Lifecycle, OlderStep, ResourceKind } from '../../shared/contract/lifecycle.ts';
import { RecordNotFoundError } from './errors.ts';
import { containsPattern, fromJsonColumn, newId, toJsonColumn } from './sql.ts';

/** The lifecycle, plus `submission_unknown`: the create request's answer was lost, so there is no remote id yet. */
export type JobState = Lifecycle | 'submission_unknown';

export interface JobRecord {
  id: string;
  kind: ResourceKind;
  /** Session code / v3 id; null while the submission is unknown. */
  remoteId: string | null;
  step: OlderStep | null;
  /** Text-animation prompts awaited. */
  texts: string[] | null;
  parentId: string | null;
  operationId: string | null;
  label: string;
  state: JobState;
  rawStatus: string;
  percent: number | null;
  final: boolean;
  error: string | null;
  /** The resource as last read (decoded JSON), null before the first read. */
  result: unknown;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  lastPolledAt: number | null;
  nextPollAt: number | null;
  /** When the raw status or percent last changed. */
  lastChangeAt: number;
  /** Since when the status has been a string the lifecycle does not know. */
  unknownSince: number | null;
  pollCount: number;
  outputsFetched: boolean;
}

export interface NewJob {
  /** Default: `job_` + random. */
  id?: string;
  kind: ResourceKind;
  label: string;
  remoteId?: string | null;
  step?: OlderStep | null;
  texts?: readonly string[] | null;
  parentId?: string | null;
  operationId?: string | null;
  /** Default: `queued` with a remote id, `submission_unknown` without. */
  state?: JobState;
  rawStatus?: string;
  percent?: number | null;
  final?: boolean;
  result?: unknown;
  /** Default: `now` with a remote id (poll at once), null without (nothing to poll). */
  nextPollAt?: number | null;
  now: number;
}

export interface StatusUpdate {
  state: JobState;
  rawStatus: string;
  /** Omitted or null: the status has no percent. */
  percent?: number | null;
  final: boolean;
  /** Omitted: the stored value is kept; null clears it. */
  result?: unknown;
  /** Omitted: the stored value is kept; null clears it. */
  error?: string | null;
  now: number;
}

export interface JobFilter {
  final?: boolean;
  kinds?: readonly ResourceKind[];
  /** Matches the label, the local id or the remote id anywhere (case-insensitive for ASCII). */
  search?: string;
}

export interface JobPage extends JobFilter {
  limit?: number;
  offset?: number;
}

interface JobRow {
  id: string;
  kind: string;
  remote_id: string | null;
  step: string | null;
  texts: string | null;
  parent_id: string | null;
  operation_id: string | null;
  label: string;
  state: string;
  raw_status: string;
  percent: number | null;
  final: number;
  error: string | null;
  result: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  last_polled_at: number | null;
  next_poll_at: number | null;
  last_change_at: number;
  unknown_since: number | null;
  poll_count: number;
  outputs_fetched: number;
}

const FILTER = `
  (:final IS NULL OR final = :final)
  AND (:kinds IS NULL OR kind IN (SELECT value FROM json_each(:kinds)))
  AND (:search IS NULL OR label LIKE :search ESCAPE '\\' OR id LIKE :search ESCAPE '\\' OR remote_id LIKE :search ESCAPE '\\')`;

export class JobsRepository {
  readonly #insert: StatementSync;
  readonly #get: StatementSync;
  readonly #findByRemoteId: StatementSync;
  readonly #list: StatementSync;
  readonly #count: StatementSync;
  readonly #listActive: StatementSync;
  readonly #due: StatementSync;
  readonly #updateStatus: StatementSync;
  readonly #schedule: StatementSync;
  readonly #attachRemote: StatementSync;
  readonly #nextDueAt: StatementSync;
  readonly #activeByRemote: StatementSync;
  readonly #markPolling: StatementSync;
  readonly #markOutputsFetched: StatementSync;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(`
      INSERT INTO jobs (id, kind, remote_id, step, texts, parent_id, operation_id, label, state, raw_status, percent, final,
                        result, created_at, updated_at, finished_at, next_poll_at, last_change_at, unknown_since)
      VALUES (:id, :kind, :remote_id, :step, :texts, :parent_id, :operation_id, :label, :state, :raw_status, :percent, :final,
              :result, :now, :now, CASE WHEN :final = 1 THEN :now END, :next_poll_at, :now, CASE WHEN :state = 'unknown' THEN :now END)
      RETURNING *`);
    this.#get = db.prepare('SELECT * FROM jobs WHERE id = ?');
    this.#findByRemoteId = db.prepare(`
      SELECT * FROM jobs WHERE remote_id = :remote_id AND (:kind IS NULL OR kind = :kind) AND (:step IS NULL OR step = :step)
      ORDER BY created_at DESC, rowid DESC LIMIT 1`);
    this.#list = db.prepare(`SELECT * FROM jobs WHERE ${FILTER} ORDER BY created_at DESC, rowid DESC LIMIT :limit OFFSET :offset`);
    this.#count = db.prepare(`SELECT count(*) AS n FROM jobs WHERE ${FILTER}`);
    this.#listActive = db.prepare('SELECT * FROM jobs WHERE final = 0 ORDER BY created_at DESC, rowid DESC');
    this.#nextDueAt = db.prepare('SELECT MIN(next_poll_at) AS at FROM jobs WHERE final = 0 AND next_poll_at IS NOT NULL');
    this.#activeByRemote = db.prepare('SELECT * FROM jobs WHERE final = 0 AND remote_id = ? ORDER BY created_at, rowid');
    this.#markPolling = db.prepare('UPDATE jobs SET next_poll_at = NULL, last_polled_at = :now WHERE id = :id');
    this.#due = db.prepare(`
      SELECT * FROM jobs WHERE final = 0 AND next_poll_at <= :now ORDER BY next_poll_at, created_at, rowid LIMIT :limit`);
    // In SET expressions SQLite reads the row as it was before the update.
    this.#updateStatus = db.prepare(`
      UPDATE jobs SET
        last_change_at = CASE WHEN raw_status IS NOT :raw_status OR percent IS NOT :percent THEN :now ELSE last_change_at END,
        unknown_since = CASE WHEN :state <> 'unknown' THEN NULL WHEN state = 'unknown' THEN unknown_since ELSE :now END,
        finished_at = CASE WHEN :final = 0 THEN NULL WHEN final = 1 THEN finished_at ELSE :now END,
        state = :state, raw_status = :raw_status, percent = :percent, final = :final,
        result = CASE WHEN :keep_result THEN result ELSE :result END,
        error = CASE WHEN :keep_error THEN error ELSE :error END,
        updated_at = :now
      WHERE id = :id RETURNING *`);
    this.#schedule = db.prepare(`
      UPDATE jobs SET next_poll_at = :next_poll_at, last_polled_at = :now, poll_count = poll_count + 1, updated_at = :now
      WHERE id = :id RETURNING *`);
    this.#attachRemote = db.prepare(`
      UPDATE jobs SET remote_id = :remote_id, next_poll_at = :now, updated_at = :now,
        state = CASE WHEN state = 'submission_unknown' THEN 'queued' ELSE state END
      WHERE id = :id AND (remote_id IS NULL OR remote_id = :remote_id) RETURNING *`);
    this.#markOutputsFetched = db.prepare('UPDATE jobs SET outputs_fetched = 1 WHERE id = ? RETURNING *');
  }

  insert(job: NewJob): JobRecord {
    const remoteId = job.remoteId ?? null;
    const row = this.#insert.get({
      id: job.id ?? newId('job'),
      kind: job.kind,
      remote_id: remoteId,
      step: job.step ?? null,
      texts: toJsonColumn(job.texts),
      parent_id: job.parentId ?? null,
      operation_id: job.operationId ?? null,
      label: job.label,
      state: job.state ?? (remoteId === null ? 'submission_unknown' : 'queued'),
      raw_status: job.rawStatus ?? '',
      percent: job.percent ?? null,
      final: job.final ? 1 : 0,
      result: toJsonColumn(job.result),
      next_poll_at: job.nextPollAt !== undefined ? job.nextPollAt : remoteId === null ? null : job.now,
      now: job.now,
    });
    return toRecord(row);
  }

  get(id: string): JobRecord | undefined {
    return maybeRecord(this.#get.get(id));
  }

  /** Like get, but a missing job is an error (RecordNotFoundError). */
  require(id: string): JobRecord {
    return found(id, this.#get.get(id));
  }

  /** The newest job for a remote id (several rows share one for the older flow's steps). */
  findByRemoteId(remoteId: string, kind?: ResourceKind, step?: OlderStep): JobRecord | undefined {
    return maybeRecord(this.#findByRemoteId.get({ remote_id: remoteId, kind: kind ?? null, step: step ?? null }));
  }

  /** Newest first. */
  list(page: JobPage = {}): JobRecord[] {
    return this.#list.all({ ...filterParams(page), limit: page.limit ?? -1, offset: page.offset ?? 0 }).map(toRecord);
  }

  count(filter: JobFilter = {}): number {
    return (this.#count.get(filterParams(filter)) as { n: number }).n;
  }

  /** Jobs that are not final, newest first. */
  listActive(): JobRecord[] {
    return this.#listActive.all().map(toRecord);
  }

  /** The earliest next poll time of the active jobs, or undefined when none is scheduled. */
  nextDueAt(): number | undefined {
    const row = this.#nextDueAt.get() as { at: number | null } | undefined;
    return row?.at ?? undefined;
  }

  /** The unfinished jobs of one remote id (the older flow has one per step). */
  activeByRemoteId(remoteId: string): JobRecord[] {
    return this.#activeByRemote.all(remoteId).map(toRecord);
  }

  /** A read of the job has started: it is not due again until `schedule` sets its next time. */
  markPolling(id: string, now: number): void {
    this.#markPolling.run({ id, now });
  }

  /** Active jobs whose next poll time has come, the longest-waiting first. */
  due(now: number, limit: number): JobRecord[] {
    return this.#due.all({ now, limit }).map(toRecord);
  }

  /**
   * Stores a status read. `lastChangeAt` moves only when the raw status or percent changed,
   * `finishedAt` is set when the job becomes final, `unknownSince` is kept while the state stays unknown.
   */
  updateStatus(id: string, update: StatusUpdate): JobRecord {
    return found(id, this.#updateStatus.get({
      id,
      state: update.state,
      raw_status: update.rawStatus,
      percent: update.percent ?? null,
      final: update.final ? 1 : 0,
      keep_result: update.result === undefined ? 1 : 0,
      result: toJsonColumn(update.result),
      keep_error: update.error === undefined ? 1 : 0,
      error: update.error ?? null,
      now: update.now,
    }));
  }

  /** Records a poll: the next poll time (null: none planned), `lastPolledAt` = now, one more poll counted. */
  schedule(id: string, nextPollAt: number | null, now: number): JobRecord {
    return found(id, this.#schedule.get({ id, next_poll_at: nextPollAt, now }));
  }

  /**
   * Gives a job whose submission was lost the remote id it was reconciled with; it is polled at once.
   * Refused when the job already has a different remote id.
   */
  attachRemote(id: string, remoteId: string, now: number): JobRecord {
    const row = this.#attachRemote.get({ id, remote_id: remoteId, now });
    if (row !== undefined) return toRecord(row);
    const job = this.get(id);
    if (job === undefined) throw new RecordNotFoundError('jobs', id);
    throw new Error(`The job ${id} is already attached to ${job.remoteId}; it cannot be attached to ${remoteId}.`);
  }

  markOutputsFetched(id: string): JobRecord {
    return found(id, this.#markOutputsFetched.get(id));
  }
}

function filterParams(filter: JobFilter) {
  return {
    final: filter.final === undefined ? null : filter.final ? 1 : 0,
    kinds: filter.kinds === undefined ? null : JSON.stringify(filter.kinds),
    search: filter.search ? containsPattern(filter.search) : null,
  };
}

function found(id: string, row: unknown): JobRecord {
  if (row === undefined) throw new RecordNotFoundError('jobs', id);
  return toRecord(row);
}

function maybeRecord(row: unknown): JobRecord | undefined {
  return row === undefined ? undefined : toRecord(row);
}

function toRecord(row: unknown): JobRecord {
  const r = row as JobRow;
  return {
    id: r.id,
    kind: r.kind as ResourceKind,
    remoteId: r.remote_id,
    step: r.step as OlderStep | null,
    texts: fromJsonColumn(r.texts) as string[] | null,
    parentId: r.parent_id,
    operationId: r.operation_id,
    label: r.label,
    state: r.state as JobState,
    rawStatus: r.raw_status,
    percent: r.percent,
    final: r.final === 1,
    error: r.error,
    result: fromJsonColumn(r.result),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
    lastPolledAt: r.last_polled_at,
    nextPollAt: r.next_poll_at,
    lastChangeAt: r.last_change_at,
    unknownSince: r.unknown_since,
    pollCount: r.poll_count,
    outputsFetched: r.outputs_fetched === 1,
  };
}
