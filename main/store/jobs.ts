// Table `jobs`: one row per tracked job (every resource type; each step of the older
// image-to-3D flow is its own row). Times are epoch milliseconds. The library lists them grouped: the
// steps of one older-flow session are one entry (its first row, the session's name), and so are an
// animation session's upload and the text-animation jobs asked of it (one character), see `group`.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Lifecycle, OlderStep, ResourceKind } from '../../shared/contract/lifecycle.ts';
import { containsPattern, fromJsonColumn, newId, requireRow, toJsonColumn } from './sql.ts';

/** The lifecycle, plus `submission_unknown`: the create request's answer was lost, so there is no remote id yet. */
export type JobState = Lifecycle | 'submission_unknown';

/** Where a job was made: the embedded local engine (a procedural stand-in) or a real service. */
export const JOB_ORIGINS = ['local-engine', 'service'] as const;
export type JobOrigin = (typeof JOB_ORIGINS)[number];

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
  /** The name the user gave it in the library (rename); null: it is shown by its label. */
  name: string | null;
  /** Where it was made; null: unknown (recorded before origins were). */
  origin: JobOrigin | null;
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
  /** Where it is made (the connection of the process that creates it); default null, unknown. */
  origin?: JobOrigin | null;
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
  /** Only these states (of a group: its newest step's). */
  states?: readonly JobState[];
  kinds?: readonly ResourceKind[];
  /** Matches the name, the label, the local id or the remote id anywhere (case-insensitive for ASCII). */
  search?: string;
  /** Created at or after (epoch ms). */
  since?: number;
  /** Created before (epoch ms). */
  until?: number;
  /**
   * One row per library entry: the steps of an older-flow session (one remote id), and an animation
   * session's upload with its text-animation jobs, are listed as their first row only; the state filters
   * read the newest step, the search and the kinds any step.
   */
  group?: boolean;
}

/** The orders of a list: `name` is the shown name (the user's, else the label), A to Z. */
export const JOB_SORTS = ['newest', 'oldest', 'name', 'kind', 'state'] as const;
export type JobSort = (typeof JOB_SORTS)[number];

export interface JobPage extends JobFilter {
  limit?: number;
  offset?: number;
  /** Default: newest first. */
  sort?: JobSort;
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
  name: string | null;
  origin: string | null;
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

const OLDER = "'image_to_3d_older'";
const ANIMATION = "'animation_session', 'animation_prompt'";
/**
 * The family of row `m` for the library's grouping: rows of one family and one remote id are one entry.
 * An older-flow session's steps; an animation session's upload and the text-animation jobs asked of it (one
 * character, its prompts' results read with the session). NULL: a row that is its own entry.
 */
const family = (m: string) => `(CASE WHEN ${m}.kind = ${OLDER} THEN 1 WHEN ${m}.kind IN (${ANIMATION}) THEN 2 END)`;
/** Row `m` belongs to the library entry of row `j` (grouped: the same older-flow or animation session). */
const memberOf = (m: string, group: boolean) =>
  group
    ? `(${m}.id = j.id OR (j.remote_id IS NOT NULL AND ${family('j')} IS NOT NULL AND ${family(m)} = ${family('j')} AND ${m}.remote_id = j.remote_id))`
    : `${m}.id = j.id`;
/** `j` is the first row of its session (the older flow's first step, an animation's upload), or not part of one. */
const HEAD = `(${family('j')} IS NULL OR j.remote_id IS NULL OR NOT EXISTS (
  SELECT 1 FROM jobs o WHERE o.remote_id = j.remote_id AND ${family('o')} = ${family('j')} AND (o.created_at < j.created_at OR (o.created_at = j.created_at AND o.rowid < j.rowid))))`;
const LIKE = (m: string) =>
  `${m}.label LIKE :search ESCAPE '\\' OR ${m}.name LIKE :search ESCAPE '\\' OR ${m}.id LIKE :search ESCAPE '\\' OR ${m}.remote_id LIKE :search ESCAPE '\\'`;
/** The state of an entry: of a group its newest step's. */
const stateOf = (group: boolean) =>
  group
    ? `(SELECT n.state FROM jobs n WHERE ${memberOf('n', true)} ORDER BY n.created_at DESC, n.rowid DESC LIMIT 1)`
    : 'j.state';
const finalOf = (group: boolean) =>
  group
    ? `(SELECT n.final FROM jobs n WHERE ${memberOf('n', true)} ORDER BY n.created_at DESC, n.rowid DESC LIMIT 1)`
    : 'j.final';

function filterSql(group: boolean): string {
  return `
  (:final IS NULL OR ${finalOf(group)} = :final)
  AND (:states IS NULL OR ${stateOf(group)} IN (SELECT value FROM json_each(:states)))
  AND (:kinds IS NULL OR ${group ? `EXISTS (SELECT 1 FROM jobs k WHERE ${memberOf('k', true)} AND k.kind IN (SELECT value FROM json_each(:kinds)))` : 'j.kind IN (SELECT value FROM json_each(:kinds))'})
  AND (:since IS NULL OR j.created_at >= :since)
  AND (:until IS NULL OR j.created_at < :until)
  AND (:search IS NULL OR ${group ? `EXISTS (SELECT 1 FROM jobs s WHERE ${memberOf('s', true)} AND (${LIKE('s')}))` : LIKE('j')})
  ${group ? `AND ${HEAD}` : ''}`;
}

const ORDER: Readonly<Record<JobSort, (group: boolean) => string>> = {
  newest: () => 'j.created_at DESC, j.rowid DESC',
  oldest: () => 'j.created_at ASC, j.rowid ASC',
  name: () => 'coalesce(j.name, j.label) COLLATE NOCASE ASC, j.created_at DESC, j.rowid DESC',
  kind: () => 'j.kind ASC, j.created_at DESC, j.rowid DESC',
  state: (group) => `${stateOf(group)} ASC, j.created_at DESC, j.rowid DESC`,
};

export class JobsRepository {
  readonly #insert: StatementSync;
  readonly #get: StatementSync;
  readonly #getMany: StatementSync;
  readonly #findByRemoteId: StatementSync;
  readonly #db: DatabaseSync;
  /** The list and count statements, by grouping and order, prepared when first used. */
  readonly #lists = new Map<string, StatementSync>();
  readonly #rename: StatementSync;
  readonly #relabel: StatementSync;
  readonly #delete: StatementSync;
  readonly #sessionSteps: StatementSync;
  readonly #animationRows: StatementSync;
  readonly #listActive: StatementSync;
  readonly #due: StatementSync;
  readonly #updateStatus: StatementSync;
  readonly #schedule: StatementSync;
  readonly #attachRemote: StatementSync;
  readonly #nextDueAt: StatementSync;
  readonly #activeByRemote: StatementSync;
  readonly #markPolling: StatementSync;
  readonly #renewClaim: StatementSync;
  readonly #markOutputsFetched: StatementSync;
  readonly #pollBy: StatementSync;
  readonly #changedSince: StatementSync;
  readonly #dataVersion: StatementSync;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(`
      INSERT INTO jobs (id, kind, remote_id, step, texts, parent_id, operation_id, label, origin, state, raw_status, percent, final,
                        result, created_at, updated_at, finished_at, next_poll_at, last_change_at, unknown_since)
      VALUES (:id, :kind, :remote_id, :step, :texts, :parent_id, :operation_id, :label, :origin, :state, :raw_status, :percent, :final,
              :result, :now, :now, CASE WHEN :final = 1 THEN :now END, :next_poll_at, :now, CASE WHEN :state = 'unknown' THEN :now END)
      RETURNING *`);
    this.#get = db.prepare('SELECT * FROM jobs WHERE id = ?');
    this.#getMany = db.prepare('SELECT * FROM jobs WHERE id IN (SELECT value FROM json_each(?))');
    this.#findByRemoteId = db.prepare(`
      SELECT * FROM jobs WHERE remote_id = :remote_id AND (:kind IS NULL OR kind = :kind) AND (:step IS NULL OR step = :step)
      ORDER BY created_at DESC, rowid DESC LIMIT 1`);
    this.#db = db;
    this.#rename = db.prepare('UPDATE jobs SET name = :name, updated_at = :now WHERE id = :id RETURNING *');
    this.#relabel = db.prepare('UPDATE jobs SET label = :label, updated_at = :now WHERE id = :id RETURNING *');
    this.#delete = db.prepare('DELETE FROM jobs WHERE id = ? RETURNING *');
    this.#sessionSteps = db.prepare(
      `SELECT * FROM jobs WHERE kind = ${OLDER} AND remote_id = ? ORDER BY created_at, rowid`,
    );
    this.#animationRows = db.prepare(
      `SELECT * FROM jobs WHERE kind IN (${ANIMATION}) AND remote_id = ? ORDER BY created_at, rowid`,
    );
    this.#listActive = db.prepare('SELECT * FROM jobs WHERE final = 0 ORDER BY created_at DESC, rowid DESC');
    this.#nextDueAt = db.prepare(
      'SELECT MIN(next_poll_at) AS at FROM jobs WHERE final = 0 AND next_poll_at IS NOT NULL',
    );
    this.#activeByRemote = db.prepare(
      'SELECT * FROM jobs WHERE final = 0 AND remote_id = ? ORDER BY created_at, rowid',
    );
    // A claim: of two processes on one data folder that find the same read due, one gets it, for a lease: the
    // read is due again (for anyone) when the lease runs out unless its holder renews it. A holder killed or
    // stopped (kill -9, SIGSTOP, Ctrl-C at the wrong moment) so never keeps the job unread.
    this.#markPolling = db.prepare(`
      UPDATE jobs SET next_poll_at = :until, claimed_until = :until, last_polled_at = :now
      WHERE id = :id AND final = 0 AND next_poll_at IS NOT NULL AND next_poll_at <= :now`);
    this.#renewClaim = db.prepare(`
      UPDATE jobs SET next_poll_at = :until, claimed_until = :until
      WHERE id = :id AND final = 0 AND claimed_until = :held`);
    this.#changedSince = db.prepare(
      'SELECT * FROM jobs WHERE updated_at >= :since OR id IN (SELECT value FROM json_each(:ids)) ORDER BY created_at, rowid',
    );
    this.#dataVersion = db.prepare('PRAGMA data_version');
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
      UPDATE jobs SET next_poll_at = :next_poll_at, claimed_until = NULL, last_polled_at = :now, poll_count = poll_count + 1,
        updated_at = :now
      WHERE id = :id RETURNING *`);
    this.#attachRemote = db.prepare(`
      UPDATE jobs SET remote_id = :remote_id, next_poll_at = :now, claimed_until = NULL, updated_at = :now,
        state = CASE WHEN state = 'submission_unknown' THEN 'queued' ELSE state END
      WHERE id = :id AND (remote_id IS NULL OR remote_id = :remote_id) RETURNING *`);
    this.#markOutputsFetched = db.prepare('UPDATE jobs SET outputs_fetched = 1 WHERE id = ? RETURNING *');
    // A read under way (claimed) is left alone: its holder plans the next one when it ends.
    this.#pollBy = db.prepare(
      'UPDATE jobs SET next_poll_at = :at WHERE id = :id AND final = 0 AND next_poll_at > :at AND claimed_until IS NULL',
    );
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
      origin: job.origin ?? null,
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

  /** The jobs of these ids that exist, in one read (in no particular order; an id not found is left out). */
  getMany(ids: readonly string[]): JobRecord[] {
    return ids.length === 0 ? [] : this.#getMany.all(JSON.stringify(ids)).map(toRecord);
  }

  /** Like get, but a missing job is an error (RecordNotFoundError). */
  require(id: string): JobRecord {
    return found(this.#get, id);
  }

  /** The newest job for a remote id (several rows share one for the older flow's steps). */
  findByRemoteId(remoteId: string, kind?: ResourceKind, step?: OlderStep): JobRecord | undefined {
    return maybeRecord(this.#findByRemoteId.get({ remote_id: remoteId, kind: kind ?? null, step: step ?? null }));
  }

  /** Newest first unless `sort` says otherwise. */
  list(page: JobPage = {}): JobRecord[] {
    const group = page.group === true;
    const sort = page.sort ?? 'newest';
    const statement = this.#prepared(
      `list:${group}:${sort}`,
      () => `SELECT * FROM jobs j WHERE ${filterSql(group)} ORDER BY ${ORDER[sort](group)} LIMIT :limit OFFSET :offset`,
    );
    return statement.all({ ...filterParams(page), limit: page.limit ?? -1, offset: page.offset ?? 0 }).map(toRecord);
  }

  count(filter: JobFilter = {}): number {
    const group = filter.group === true;
    const statement = this.#prepared(
      `count:${group}`,
      () => `SELECT count(*) AS n FROM jobs j WHERE ${filterSql(group)}`,
    );
    return (statement.get(filterParams(filter)) as { n: number }).n;
  }

  /** The rows of one older-flow session (one per step), oldest first: the steps of its library entry. */
  sessionSteps(remoteId: string): JobRecord[] {
    return this.#sessionSteps.all(remoteId).map(toRecord);
  }

  /** The rows of one animation session, oldest first: its upload, then the text-animation jobs asked of it. */
  animationRows(remoteId: string): JobRecord[] {
    return this.#animationRows.all(remoteId).map(toRecord);
  }

  /** Sets the name shown in the library (null: back to the label). */
  rename(id: string, name: string | null, now: number): JobRecord {
    return found(this.#rename, { id, name, now });
  }

  /** Sets the label (what the job is shown as when the user gave it no name), e.g. once the service answered. */
  relabel(id: string, label: string, now: number): JobRecord {
    return found(this.#relabel, { id, label, now });
  }

  /** Deletes the row (the journal and cache entries that named it keep their rows, unlinked); the row as it was. */
  delete(id: string): JobRecord {
    return found(this.#delete, id);
  }

  #prepared(key: string, sql: () => string): StatementSync {
    let statement = this.#lists.get(key);
    if (statement === undefined) this.#lists.set(key, (statement = this.#db.prepare(sql())));
    return statement;
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

  /**
   * A read of the job starts, claimed until `until` (a lease): it is not due again until `schedule` sets its
   * next time, or the lease runs out unrenewed (its holder died or stopped) and another reader takes it over.
   * False when the read is no longer due (another process on this data folder took it): this one does not read.
   */
  markPolling(id: string, now: number, until: number): boolean {
    return Number(this.#markPolling.run({ id, now, until }).changes) === 1;
  }

  /**
   * Extends the claim taken until `held` to `until`; false when it is no longer this holder's (the job ended,
   * was scheduled, or its lease ran out and another reader took it over).
   */
  renewClaim(id: string, held: number, until: number): boolean {
    return Number(this.#renewClaim.run({ id, held, until }).changes) === 1;
  }

  /** Jobs updated at or after `since`, and the jobs `ids`, oldest first (what another process may have changed). */
  changedSince(since: number, ids: readonly string[] = []): JobRecord[] {
    return this.#changedSince.all({ since, ids: JSON.stringify(ids) }).map(toRecord);
  }

  /** SQLite's data_version: it changes when another connection (another process) commits to the database. */
  dataVersion(): number {
    return Number((this.#dataVersion.get() as { data_version: number }).data_version);
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
    return found(this.#updateStatus, {
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
    });
  }

  /** Records a poll: the next poll time (null: none planned), `lastPolledAt` = now, one more poll counted. */
  schedule(id: string, nextPollAt: number | null, now: number): JobRecord {
    return found(this.#schedule, { id, next_poll_at: nextPollAt, now });
  }

  /**
   * Gives a job whose submission was lost the remote id it was reconciled with; it is polled at once.
   * Refused when the job already has a different remote id.
   */
  attachRemote(id: string, remoteId: string, now: number): JobRecord {
    const row = this.#attachRemote.get({ id, remote_id: remoteId, now });
    if (row !== undefined) return toRecord(row);
    const job = this.require(id);
    throw new Error(`The job ${id} is already attached to ${job.remoteId}; it cannot be attached to ${remoteId}.`);
  }

  /** Brings a scheduled read of an active job forward to `at` (a later one is left alone); no read is counted. */
  pollBy(id: string, at: number): void {
    this.#pollBy.run({ id, at });
  }

  markOutputsFetched(id: string): JobRecord {
    return found(this.#markOutputsFetched, id);
  }
}

function filterParams(filter: JobFilter) {
  return {
    final: filter.final === undefined ? null : filter.final ? 1 : 0,
    states: filter.states === undefined ? null : JSON.stringify(filter.states),
    kinds: filter.kinds === undefined ? null : JSON.stringify(filter.kinds),
    search: filter.search ? containsPattern(filter.search) : null,
    since: filter.since ?? null,
    until: filter.until ?? null,
  };
}

/** The record the statement answers for `params` (see requireRow). */
function found(statement: StatementSync, params: Parameters<typeof requireRow>[2]): JobRecord {
  return toRecord(requireRow('jobs', statement, params));
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
    name: r.name,
    origin: (r.origin ?? null) as JobOrigin | null,
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
