// Table `cache_entries`: one row per output of a session in the download cache (main/cache/), keyed by
// (session id, kind). The bytes live in a content-addressed blob that several rows may share.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { newId, requireRow } from './sql.ts';

export type CacheState = 'pending' | 'partial' | 'complete' | 'failed';

export interface CacheEntry {
  id: string;
  /** The session code / v3 id at the service. */
  sessionId: string;
  jobId: string | null;
  /** Which output of the session: `glb`, `obj`, `image`, `spin_0`, `preview_glb`, `prompt:<id>`, ... */
  kind: string;
  /** The URL without its query string (a signed URL's signature changes at every read). */
  urlKey: string;
  /** The validator of the bytes downloaded (or being downloaded); null when the server sent none. */
  etag: string | null;
  /** Total bytes, as the server announced them. */
  size: number | null;
  /** Hex SHA-256 of the verified bytes: set when complete, kept after a failure (same ETag = same bytes). */
  sha256: string | null;
  /** Relative to the cache folder: `blobs/<aa>/<sha256>`; set only while complete. */
  blobPath: string | null;
  state: CacheState;
  error: string | null;
  /** Bytes of the partial download known to be on disk (synced). */
  bytesDone: number;
  createdAt: number;
  lastAccessAt: number;
  /** Never evicted. */
  pinned: boolean;
}

export interface CacheKey {
  sessionId: string;
  kind: string;
}

export interface NewCacheEntry extends CacheKey {
  jobId?: string | null;
  urlKey: string;
  now: number;
}

interface CacheRow {
  id: string;
  session_id: string;
  job_id: string | null;
  kind: string;
  url_key: string;
  etag: string | null;
  size: number | null;
  sha256: string | null;
  blob_path: string | null;
  state: string;
  error: string | null;
  bytes_done: number;
  created_at: number;
  last_access_at: number;
  pinned: number;
}

export class CacheRepository {
  readonly #upsert: StatementSync;
  readonly #get: StatementSync;
  readonly #list: StatementSync;
  readonly #listSession: StatementSync;
  readonly #started: StatementSync;
  readonly #progress: StatementSync;
  readonly #complete: StatementSync;
  readonly #failed: StatementSync;
  readonly #touch: StatementSync;
  readonly #pin: StatementSync;
  readonly #delete: StatementSync;

  constructor(db: DatabaseSync) {
    // Another URL for the same output means another file: everything known about the old one is dropped.
    this.#upsert = db.prepare(`
      INSERT INTO cache_entries (id, session_id, job_id, kind, url_key, state, created_at, last_access_at)
      VALUES (:id, :session_id, :job_id, :kind, :url_key, 'pending', :now, :now)
      ON CONFLICT (session_id, kind) DO UPDATE SET
        job_id = coalesce(excluded.job_id, job_id),
        etag = CASE WHEN url_key = excluded.url_key THEN etag END,
        size = CASE WHEN url_key = excluded.url_key THEN size END,
        sha256 = CASE WHEN url_key = excluded.url_key THEN sha256 END,
        blob_path = CASE WHEN url_key = excluded.url_key THEN blob_path END,
        bytes_done = CASE WHEN url_key = excluded.url_key THEN bytes_done ELSE 0 END,
        state = CASE WHEN url_key = excluded.url_key THEN state ELSE 'pending' END,
        error = CASE WHEN url_key = excluded.url_key THEN error END,
        url_key = excluded.url_key
      RETURNING *`);
    this.#get = db.prepare('SELECT * FROM cache_entries WHERE session_id = :session_id AND kind = :kind');
    this.#list = db.prepare('SELECT * FROM cache_entries ORDER BY last_access_at DESC, rowid DESC');
    this.#listSession = db.prepare('SELECT * FROM cache_entries WHERE session_id = ? ORDER BY created_at, rowid');
    this.#started = db.prepare(`
      UPDATE cache_entries SET state = 'partial', etag = :etag, size = :size, bytes_done = :bytes_done, error = NULL,
        sha256 = CASE WHEN etag IS :etag THEN sha256 END
      WHERE id = :id RETURNING *`);
    this.#progress = db.prepare('UPDATE cache_entries SET bytes_done = :bytes_done WHERE id = :id');
    this.#complete = db.prepare(`
      UPDATE cache_entries SET state = 'complete', etag = :etag, size = :size, sha256 = :sha256, blob_path = :blob_path,
        bytes_done = :size, error = NULL, last_access_at = :now
      WHERE id = :id RETURNING *`);
    this.#failed = db.prepare(`
      UPDATE cache_entries SET state = 'failed', error = :error, blob_path = NULL, bytes_done = :bytes_done WHERE id = :id RETURNING *`);
    this.#touch = db.prepare('UPDATE cache_entries SET last_access_at = :now WHERE id = :id');
    this.#pin = db.prepare(`
      UPDATE cache_entries SET pinned = :pinned WHERE session_id = :session_id AND (:kind IS NULL OR kind = :kind)`);
    this.#delete = db.prepare('DELETE FROM cache_entries WHERE id = ?');
  }

  /**
   * The entry of an output, created `pending` when new. When the output's URL (without query) changed,
   * the entry starts over as `pending`: its old blob, if no other entry shares it, is left to `gc`.
   */
  upsert(entry: NewCacheEntry): CacheEntry {
    return toEntry(
      this.#upsert.get({
        id: newId('cache'),
        session_id: entry.sessionId,
        job_id: entry.jobId ?? null,
        kind: entry.kind,
        url_key: entry.urlKey,
        now: entry.now,
      }),
    );
  }

  get(key: CacheKey): CacheEntry | undefined {
    const row = this.#get.get({ session_id: key.sessionId, kind: key.kind });
    return row === undefined ? undefined : toEntry(row);
  }

  /** Every entry, the most recently used first. */
  /** The entries of one session (its outputs), oldest first. */
  listSession(sessionId: string): CacheEntry[] {
    return this.#listSession.all(sessionId).map(toEntry);
  }

  list(): CacheEntry[] {
    return this.#list.all().map(toEntry);
  }

  /**
   * A download got its answer: it is `partial` from now on, with the answer's validator and total size.
   * The hash of an earlier copy is kept only while the validator stays the same.
   */
  markStarted(id: string, response: { etag: string | null; size: number | null; bytesDone: number }): CacheEntry {
    return found(this.#started, { id, etag: response.etag, size: response.size, bytes_done: response.bytesDone });
  }

  /** Bytes of the partial download now synced to disk. */
  markProgress(id: string, bytesDone: number): void {
    this.#progress.run({ id, bytes_done: bytesDone });
  }

  markComplete(
    id: string,
    blob: { etag: string | null; size: number; sha256: string; blobPath: string; now: number },
  ): CacheEntry {
    return found(this.#complete, {
      id,
      etag: blob.etag,
      size: blob.size,
      sha256: blob.sha256,
      blob_path: blob.blobPath,
      now: blob.now,
    });
  }

  /** `bytesDone`: what a later attempt may resume from (0 when the partial file was discarded). */
  markFailed(id: string, error: string, bytesDone: number): CacheEntry {
    return found(this.#failed, { id, error, bytes_done: bytesDone });
  }

  touch(id: string, now: number): void {
    this.#touch.run({ id, now });
  }

  /** Pins (or unpins) one output of a session, or every output it has now; returns how many entries. */
  setPinned(sessionId: string, kind: string | undefined, pinned: boolean): number {
    return Number(this.#pin.run({ session_id: sessionId, kind: kind ?? null, pinned: pinned ? 1 : 0 }).changes);
  }

  delete(id: string): void {
    this.#delete.run(id);
  }
}

/** The record the statement answers for `params` (see requireRow). */
function found(statement: StatementSync, params: Parameters<typeof requireRow>[2]): CacheEntry {
  return toEntry(requireRow('cache_entries', statement, params));
}

function toEntry(row: unknown): CacheEntry {
  const r = row as CacheRow;
  return {
    id: r.id,
    sessionId: r.session_id,
    jobId: r.job_id,
    kind: r.kind,
    urlKey: r.url_key,
    etag: r.etag,
    size: r.size,
    sha256: r.sha256,
    blobPath: r.blob_path,
    state: r.state as CacheState,
    error: r.error,
    bytesDone: r.bytes_done,
    createdAt: r.created_at,
    lastAccessAt: r.last_access_at,
    pinned: r.pinned === 1,
  };
}
