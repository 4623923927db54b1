// The schema's history. Entry i brings a database from version i to version i + 1 (`PRAGMA user_version`).
// Entries are never edited once released: a change is a new entry appended at the end.

/** A SQL script run inside the opening transaction. */
export type Migration = string;

const V1_INITIAL = `
CREATE TABLE journal (
  operation_id TEXT PRIMARY KEY,
  endpoint     TEXT NOT NULL,
  params       TEXT NOT NULL,
  body         TEXT NOT NULL,
  body_hash    TEXT NOT NULL,
  file_path    TEXT,
  file_hash    TEXT,
  state        TEXT NOT NULL CHECK (state IN ('pending', 'answered', 'unknown', 'rejected', 'reconciled', 'abandoned')),
  remote_id    TEXT,
  job_id       TEXT REFERENCES jobs (id) ON DELETE SET NULL,
  error        TEXT,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  sent_at      INTEGER,
  answered_at  INTEGER
);
CREATE INDEX journal_state ON journal (state);
CREATE INDEX journal_body_hash ON journal (body_hash);

CREATE TABLE jobs (
  id              TEXT PRIMARY KEY,
  kind            TEXT NOT NULL,
  remote_id       TEXT,
  step            TEXT,
  texts           TEXT,
  parent_id       TEXT REFERENCES jobs (id) ON DELETE SET NULL,
  operation_id    TEXT REFERENCES journal (operation_id) ON DELETE SET NULL,
  label           TEXT NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'unknown', 'submission_unknown')),
  raw_status      TEXT NOT NULL,
  percent         REAL,
  final           INTEGER NOT NULL CHECK (final IN (0, 1)),
  error           TEXT,
  result          TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  finished_at     INTEGER,
  last_polled_at  INTEGER,
  next_poll_at    INTEGER,
  last_change_at  INTEGER NOT NULL,
  unknown_since   INTEGER,
  poll_count      INTEGER NOT NULL DEFAULT 0,
  outputs_fetched INTEGER NOT NULL DEFAULT 0 CHECK (outputs_fetched IN (0, 1))
);
CREATE INDEX jobs_due ON jobs (final, next_poll_at);
CREATE INDEX jobs_remote_id ON jobs (remote_id);

CREATE TABLE webhook_deliveries (
  webhook_id  TEXT PRIMARY KEY,
  received_at INTEGER NOT NULL,
  session_id  TEXT,
  event_type  TEXT
);
CREATE INDEX webhook_deliveries_received_at ON webhook_deliveries (received_at);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/** The download cache: one row per output of a session (see main/cache/). Blobs are content-addressed, so rows may share one. */
const V2_CACHE = `
CREATE TABLE cache_entries (
  id             TEXT PRIMARY KEY,
  session_id     TEXT NOT NULL,
  job_id         TEXT REFERENCES jobs (id) ON DELETE SET NULL,
  kind           TEXT NOT NULL,
  url_key        TEXT NOT NULL,
  etag           TEXT,
  size           INTEGER,
  sha256         TEXT,
  blob_path      TEXT,
  state          TEXT NOT NULL CHECK (state IN ('pending', 'partial', 'complete', 'failed')),
  error          TEXT,
  bytes_done     INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  last_access_at INTEGER NOT NULL,
  pinned         INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
  UNIQUE (session_id, kind)
);
CREATE INDEX cache_entries_sha256 ON cache_entries (sha256);
`;

/**
 * The library: a name the user gave a job (null: its label, the input file name or prompt), and an index
 * for the library's date order and filter.
 */
const V3_JOB_NAMES = `
ALTER TABLE jobs ADD COLUMN name TEXT CHECK (name IS NULL OR length(name) BETWEEN 1 AND 200);
CREATE INDEX jobs_created_at ON jobs (created_at);
`;

/**
 * Where a job was made: 'local-engine' (the embedded engine, a procedural stand-in) or 'service'; null for
 * jobs recorded before this version (unknown).
 */
const V4_JOB_ORIGIN = `
ALTER TABLE jobs ADD COLUMN origin TEXT CHECK (origin IS NULL OR origin IN ('local-engine', 'service'));
`;

/**
 * A read of a job is a lease: `claimed_until` is when the claim of the process reading it runs out unless it
 * renews it (its `next_poll_at` is the same time, so the read is due again for any process once it has run
 * out: a holder killed or stopped never keeps a job unread). Null: nobody is reading it.
 */
const V5_READ_LEASE = `
ALTER TABLE jobs ADD COLUMN claimed_until INTEGER;
`;

/**
 * Who wrote a journal row and under which name: `writer` is the process sending it (`<pid>@<boot id>:<start>`,
 * main/durable/process-identity.ts), so a row left `pending` by a process that died (kill -9 while the request was
 * on the wire) is told at once from one still being sent; `label` is the job's name, given to the job the row
 * becomes when its answer was lost. Null for rows written before this version.
 */
const V6_JOURNAL_WRITER = `
ALTER TABLE journal ADD COLUMN writer TEXT;
ALTER TABLE journal ADD COLUMN label TEXT;
`;

/**
 * The review of a job's model (issue #31): its real height in metres as the user said it (the engine-fit check
 * asks when a model is 1 m, the generator's default) and the review board's approve or reject. Gone with its job.
 */
const V7_JOB_REVIEWS = `
CREATE TABLE job_reviews (
  job_id     TEXT PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
  height_m   REAL CHECK (height_m IS NULL OR (height_m > 0 AND height_m <= 10000)),
  decision   TEXT CHECK (decision IS NULL OR decision IN ('approved', 'rejected')),
  updated_at INTEGER NOT NULL
);
`;

export const MIGRATIONS: readonly Migration[] = [
  V1_INITIAL,
  V2_CACHE,
  V3_JOB_NAMES,
  V4_JOB_ORIGIN,
  V5_READ_LEASE,
  V6_JOURNAL_WRITER,
  V7_JOB_REVIEWS,
];
