// Table `journal`, the submission journal: every create / mutating request is written here BEFORE
// it is sent, so a request whose answer was lost (reset, timeout, crash) can be found and reconciled.
import { createHash } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { EndpointId } from '../../shared/contract/endpoints.ts';
import { identityText, isSameProcessAlive, ownIdentity, parseIdentity } from '../durable/process-identity.ts';
import { DuplicateOperationError, JournalStateError, RecordNotFoundError } from './errors.ts';
import { fromJsonColumn, newId } from './sql.ts';

/**
 * pending: written, maybe being sent · answered: the answer arrived · unknown: the answer was lost ·
 * rejected: the service answered with an error, nothing was created · reconciled: an unknown one was
 * matched to a session · abandoned: the user decided it was never created.
 */
export type JournalState = 'pending' | 'answered' | 'unknown' | 'rejected' | 'reconciled' | 'abandoned';

export const CRASH_ERROR = 'the app stopped while the request was being sent';
/** How long a `pending` row that names no writer (written by an older version) is taken to be still sent. */
export const UNNAMED_WRITER_MS = 5 * 60_000;

export interface JournalEntry {
  operationId: string;
  endpoint: EndpointId;
  /** Path parameters. */
  params: Record<string, string>;
  /** The validated request body, so it can be replayed. */
  body: unknown;
  /** sha256 hex of `canonicalJson({ endpoint, params, body })`. */
  bodyHash: string;
  filePath: string | null;
  fileHash: string | null;
  state: JournalState;
  remoteId: string | null;
  jobId: string | null;
  error: string | null;
  createdAt: number;
  /** When the entry last changed state (or was marked sent). */
  updatedAt: number;
  sentAt: number | null;
  /** When the service's answer (success or error) arrived. */
  answeredAt: number | null;
  /** The process that sends it (`<pid>@<boot id>:<start>`, main/durable/process-identity.ts); null in older rows. */
  writer: string | null;
  /** The name of the job it makes, for the job a lost one becomes; null in older rows. */
  label: string | null;
}

export interface NewOperation {
  /** Default: `op_` + random. */
  operationId?: string;
  endpoint: EndpointId;
  params: Readonly<Record<string, string>>;
  body: unknown;
  filePath?: string | null;
  fileHash?: string | null;
  /** The name of the job it makes. */
  label?: string | null;
  /** The process that sends it (process-identity.ts text); default: this one; null: unnamed, as in older rows. */
  writer?: string | null;
  now: number;
}

interface JournalRow {
  operation_id: string;
  endpoint: string;
  params: string;
  body: string;
  body_hash: string;
  file_path: string | null;
  file_hash: string | null;
  state: string;
  remote_id: string | null;
  job_id: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  answered_at: number | null;
  writer: string | null;
  label: string | null;
}

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export function bodyHash(endpoint: EndpointId, params: Readonly<Record<string, string>>, body: unknown): string {
  return createHash('sha256').update(canonicalJson({ endpoint, params, body })).digest('hex');
}

/** Each transition: the states it may start from, and what it sets besides `state` and `updated_at`. */
const TRANSITIONS = {
  sent: { to: 'pending', from: ['pending'], set: 'sent_at = :now' },
  answered: {
    to: 'answered',
    from: ['pending', 'unknown'],
    set: 'remote_id = :remote_id, answered_at = :now, error = NULL',
  },
  unknown: { to: 'unknown', from: ['pending', 'unknown'], set: 'error = :error' },
  rejected: { to: 'rejected', from: ['pending'], set: 'error = :error, answered_at = :now' },
  reconciled: { to: 'reconciled', from: ['unknown'], set: 'remote_id = :remote_id' },
  abandoned: { to: 'abandoned', from: ['pending', 'unknown'], set: '' },
} as const satisfies Record<string, { to: JournalState; from: readonly JournalState[]; set: string }>;
type Transition = keyof typeof TRANSITIONS;

export class JournalRepository {
  readonly #begin: StatementSync;
  readonly #get: StatementSync;
  readonly #transitions: Record<Transition, StatementSync>;
  readonly #linkJob: StatementSync;
  readonly #listUnresolved: StatementSync;
  readonly #pending: StatementSync;
  readonly #recover: StatementSync;
  readonly #findByHash: StatementSync;
  readonly #list: StatementSync;

  constructor(db: DatabaseSync) {
    this.#begin = db.prepare(`
      INSERT INTO journal (operation_id, endpoint, params, body, body_hash, file_path, file_hash, writer, label, state, created_at, updated_at)
      VALUES (:operation_id, :endpoint, :params, :body, :body_hash, :file_path, :file_hash, :writer, :label, 'pending', :now, :now)
      ON CONFLICT (operation_id) DO NOTHING RETURNING *`);
    this.#get = db.prepare('SELECT * FROM journal WHERE operation_id = ?');
    this.#transitions = Object.fromEntries(
      Object.entries(TRANSITIONS).map(([name, t]) => [
        name,
        db.prepare(`
          UPDATE journal SET ${[`state = '${t.to}'`, 'updated_at = :now', t.set].filter(Boolean).join(', ')}
          WHERE operation_id = :id AND state IN (${t.from.map((s) => `'${s}'`).join(', ')}) RETURNING *`),
      ]),
    ) as Record<Transition, StatementSync>;
    this.#linkJob = db.prepare('UPDATE journal SET job_id = :job_id WHERE operation_id = :id RETURNING *');
    this.#listUnresolved = db.prepare(
      "SELECT * FROM journal WHERE state IN ('pending', 'unknown') ORDER BY created_at, rowid",
    );
    this.#pending = db.prepare("SELECT * FROM journal WHERE state = 'pending' ORDER BY created_at, rowid");
    this.#recover = db.prepare(`
      UPDATE journal SET state = 'unknown', error = :error, updated_at = :now WHERE operation_id = :id AND state = 'pending'
      RETURNING *`);
    this.#findByHash = db.prepare('SELECT * FROM journal WHERE body_hash = ? ORDER BY created_at DESC, rowid DESC');
    this.#list = db.prepare('SELECT * FROM journal ORDER BY created_at DESC, rowid DESC LIMIT ?');
  }

  /** Writes the request as `pending`. Call it before sending. */
  begin(op: NewOperation): JournalEntry {
    const operationId = op.operationId ?? newId('op');
    const row = this.#begin.get({
      operation_id: operationId,
      endpoint: op.endpoint,
      params: JSON.stringify(op.params),
      body: JSON.stringify(op.body ?? null),
      body_hash: bodyHash(op.endpoint, op.params, op.body),
      file_path: op.filePath ?? null,
      file_hash: op.fileHash ?? null,
      writer: op.writer === undefined ? identityText(ownIdentity()) : op.writer,
      label: op.label ?? null,
      now: op.now,
    });
    if (row === undefined) throw new DuplicateOperationError(operationId);
    return toEntry(row);
  }

  markSent(id: string, now: number): JournalEntry {
    return this.#move(id, 'sent', { now });
  }

  markAnswered(id: string, remoteId: string | null, now: number): JournalEntry {
    return this.#move(id, 'answered', { ...(remoteId !== null && { remote_id: remoteId }), now });
  }

  /** The answer was lost: the service may or may not have created something. */
  markUnknown(id: string, error: string, now: number): JournalEntry {
    return this.#move(id, 'unknown', { error, now });
  }

  markRejected(id: string, error: string, now: number): JournalEntry {
    return this.#move(id, 'rejected', { error, now });
  }

  markReconciled(id: string, remoteId: string, now: number): JournalEntry {
    return this.#move(id, 'reconciled', { remote_id: remoteId, now });
  }

  markAbandoned(id: string, now: number): JournalEntry {
    return this.#move(id, 'abandoned', { now });
  }

  linkJob(id: string, jobId: string): JournalEntry {
    const row = this.#linkJob.get({ id, job_id: jobId });
    if (row === undefined) throw new RecordNotFoundError('journal', id);
    return toEntry(row);
  }

  get(id: string): JournalEntry | undefined {
    const row = this.#get.get(id);
    return row === undefined ? undefined : toEntry(row);
  }

  /** Entries still pending or unknown, oldest first. */
  listUnresolved(): JournalEntry[] {
    return this.#listUnresolved.all().map(toEntry);
  }

  /**
   * Every entry still `pending` whose writer is gone (killed while the request was on the wire: the service may
   * have made, and charged, what it asked) has lost its answer: it becomes `unknown`. An entry of a live writer
   * is left to it; one that names no writer (an older version's), or names it by its pid alone (no /proc), counts
   * as gone once it was begun before `unnamedBefore` (default: `now - UNNAMED_WRITER_MS`). Any process of the data
   * folder may call it.
   */
  recoverAfterCrash(now: number, options: { unnamedBefore?: number } = {}): JournalEntry[] {
    const unnamedBefore = options.unnamedBefore ?? now - UNNAMED_WRITER_MS;
    const recovered: JournalEntry[] = [];
    for (const entry of this.#pending.all().map(toEntry)) {
      if (!writerGone(entry, unnamedBefore)) continue;
      const row = this.#recover.get({ id: entry.operationId, error: CRASH_ERROR, now });
      if (row !== undefined) recovered.push(toEntry(row)); // undefined: its writer's answer came meanwhile
    }
    return recovered;
  }

  /** Entries with this hash of endpoint + params + body, newest first. */
  findByHash(hash: string): JournalEntry[] {
    return this.#findByHash.all(hash).map(toEntry);
  }

  /** The newest entries first. */
  list(limit: number): JournalEntry[] {
    return this.#list.all(limit).map(toEntry);
  }

  /** `values` holds exactly the named parameters of the transition's statement. */
  #move(id: string, transition: Transition, values: { now: number; remote_id?: string; error?: string }): JournalEntry {
    const row = this.#transitions[transition].get({ id, ...values });
    if (row !== undefined) return toEntry(row);
    const entry = this.get(id);
    if (entry === undefined) throw new RecordNotFoundError('journal', id);
    throw new JournalStateError(id, entry.state, TRANSITIONS[transition].to);
  }
}

/** True when the process that wrote a pending entry no longer runs (see recoverAfterCrash). */
export function writerGone(entry: JournalEntry, unnamedBefore: number): boolean {
  const writer = entry.writer === null ? undefined : parseIdentity(entry.writer);
  if (writer === undefined) return entry.createdAt <= unnamedBefore;
  if (!isSameProcessAlive(writer)) return true;
  // A writer named by its pid alone (no /proc to read its start): that pid may be another process's by now.
  return writer.start === undefined && entry.createdAt <= unnamedBefore;
}

function toEntry(row: unknown): JournalEntry {
  const r = row as JournalRow;
  return {
    operationId: r.operation_id,
    endpoint: r.endpoint as EndpointId,
    params: JSON.parse(r.params) as Record<string, string>,
    body: fromJsonColumn(r.body),
    bodyHash: r.body_hash,
    filePath: r.file_path,
    fileHash: r.file_hash,
    state: r.state as JournalState,
    remoteId: r.remote_id,
    jobId: r.job_id,
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    sentAt: r.sent_at,
    answeredAt: r.answered_at,
    writer: r.writer,
    label: r.label,
  };
}
