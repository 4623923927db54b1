// The local database: one SQLite file in the data folder, in WAL mode, migrated when opened.
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { asDiskFull } from '../durable/disk-full.ts';
import { DatabaseLockedError, isLocked } from '../durable/locked-database.ts';
import { CacheRepository } from './cache-entries.ts';
import { damagedCopies, isCorruption, keepAside, SQLITE_CORRUPT, SQLITE_NOTADB } from '../durable/damaged-database.ts';
import { recordClose, unchangedSinceClose } from '../durable/clean-close.ts';
import { isEmptiedDatabase } from './damaged.ts';
import { guardFailures } from './guarded-handle.ts';
import { DatabaseCorruptError, DatabaseTooNewError } from './errors.ts';
import { JobsRepository } from './jobs.ts';
import { JournalRepository } from './journal.ts';
import { ReviewsRepository } from './reviews.ts';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { SettingsRepository, type Warn } from './settings-table.ts';
import { WebhooksRepository } from './webhooks.ts';

export { DATABASE_FILE, databasePath } from './database-file.ts';
const BUSY_TIMEOUT_MS = 5000;
// The file header: https://www.sqlite.org/fileformat.html#the_database_header
const SQLITE_HEADER_SIZE = 100;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const USER_VERSION_OFFSET = 60;

export interface Store {
  readonly path: string;
  readonly jobs: JobsRepository;
  readonly journal: JournalRepository;
  readonly webhooks: WebhooksRepository;
  readonly settings: SettingsRepository;
  readonly cache: CacheRepository;
  /** The real size the user gave a job's model, and the review board's approvals. */
  readonly reviews: ReviewsRepository;
  /** Runs `fn` (synchronous) in one transaction: all of it is stored, or none. Nests as a savepoint. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export interface OpenOptions {
  /** Tests only: another schema history. */
  migrations?: readonly Migration[];
  /** Where an invalid stored setting is reported. Default: `process.emitWarning`. */
  warn?: Warn;
  /** `asset-studio doctor` (salvage.ts) only: a new database in place of a damaged one kept aside. */
  replaceDamaged?: boolean;
}

/**
 * Opens (creating if needed), checks (PRAGMA quick_check, unless the file is as its last clean close left it:
 * clean-close.ts) and migrates the database at `path`, or `':memory:'`.
 * Throws DatabaseTooNewError (the file is left untouched), DatabaseCorruptError (a damaged file is kept aside,
 * main/durable/damaged-database.ts; one kept aside earlier and not replaced yet is refused), DatabaseLockedError
 * (another process kept it locked past the wait) or DiskFullError.
 */
export function openDatabase(path: string, options: OpenOptions = {}): Store {
  const migrations = options.migrations ?? MIGRATIONS;
  if (path !== ':memory:' && !options.replaceDamaged) refuseDamaged(path);
  const opened = asCorruptError(path, () => {
    checkHeader(path, migrations.length);
    // Before SQLite opens it (and makes its -wal file): is it as the last close left it (clean-close.ts)?
    const unchanged = unchangedSinceClose(path);
    if (path !== ':memory:') createPrivately(path);
    const db = new DatabaseSync(path);
    try {
      db.exec(
        `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;`,
      );
      if (!unchanged) quickCheck(db);
      migrate(db, path, migrations);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
  // A write on a full disk, or damage a query finds, fails that one call in words (guarded-handle.ts).
  const db = path === ':memory:' ? opened : guardFailures(opened, path);
  return {
    path,
    jobs: new JobsRepository(db),
    journal: new JournalRepository(db),
    webhooks: new WebhooksRepository(db),
    settings: new SettingsRepository(
      db,
      options.warn ?? ((message) => process.emitWarning(message, 'AssetStudioStore')),
    ),
    cache: new CacheRepository(db),
    reviews: new ReviewsRepository(db),
    transaction: (fn) => transaction(db, fn),
    close: () => {
      if (!db.isOpen) return;
      db.close();
      recordClose(path);
    },
  };
}

/**
 * A new database file is made 0600 (its folder 0700) before SQLite opens it: SQLite would make it 0644,
 * and gives its -wal and -shm files the mode of the database file. It holds the webhook secret.
 */
function createPrivately(path: string): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}

/**
 * A zero-length database in a data folder used before (damaged.ts) is kept aside and refused; so is the
 * absence of a database while a damaged one kept aside earlier has not been replaced (by `asset-studio doctor`).
 */
function refuseDamaged(path: string): void {
  if (isEmptiedDatabase(path)) throw new DatabaseCorruptError(path, 'the file is empty', keepAside(path));
  if (existsSync(path)) return;
  const earlier = damagedCopies(path).at(-1);
  if (earlier !== undefined) throw new DatabaseCorruptError(path, 'damaged', earlier, { earlier: true });
}

/** SQLite's own check of the file's structure (every page of every table and index): damage is found here, at once. */
function quickCheck(db: DatabaseSync): void {
  const rows = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
  const found = rows.map((r) => r.quick_check).filter((line) => line !== 'ok');
  if (found.length > 0)
    throw Object.assign(new Error(`the integrity check found: ${found.slice(0, 3).join('; ')}`), {
      errcode: SQLITE_CORRUPT,
    });
}

/**
 * Reads the schema version from the file's header before SQLite opens it, so a file that is not a
 * database or is too new is never written to (not even a -wal or -shm file is created).
 */
function checkHeader(path: string, known: number): void {
  if (path === ':memory:' || !existsSync(path)) return;
  const header = readHeader(path);
  if (header.length === 0) return; // an empty file in a fresh folder: a new database (refuseDamaged said the rest)
  if (!isSqliteHeader(header)) {
    throw Object.assign(new Error('the file is not a SQLite database'), { errcode: SQLITE_NOTADB });
  }
  const found = header.readUInt32BE(USER_VERSION_OFFSET);
  if (found > known) throw new DatabaseTooNewError(path, found, known);
}

/** The magic string, and the payload fractions that every SQLite file has as 64, 32, 32. */
function isSqliteHeader(header: Buffer): boolean {
  return (
    header.length === SQLITE_HEADER_SIZE &&
    header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC) &&
    header[21] === 64 &&
    header[22] === 32 &&
    header[23] === 32
  );
}

function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(SQLITE_HEADER_SIZE);
    return header.subarray(0, readSync(fd, header, 0, SQLITE_HEADER_SIZE, 0));
  } finally {
    closeSync(fd);
  }
}

function migrate(db: DatabaseSync, path: string, migrations: readonly Migration[]): void {
  transaction(db, () => {
    // Read again under the write lock: another process may have migrated since the header was read,
    // or the newest version may be in a -wal file that the header does not show yet.
    const version = userVersion(db);
    if (version < 0 || version > migrations.length) throw new DatabaseTooNewError(path, version, migrations.length);
    for (const migration of migrations.slice(version)) db.exec(migration);
    if (version < migrations.length) db.exec(`PRAGMA user_version = ${migrations.length}`);
  });
}

function userVersion(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

function transaction<T>(db: DatabaseSync, fn: () => T): T {
  const [begin, commit, rollback] = db.isTransaction
    ? ['SAVEPOINT store_tx', 'RELEASE store_tx', 'ROLLBACK TO store_tx; RELEASE store_tx']
    : ['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK'];
  db.exec(begin);
  try {
    const result = fn();
    if (result instanceof Promise)
      throw new TypeError('store.transaction() needs a synchronous function: a transaction cannot span an await.');
    db.exec(commit);
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec(rollback);
    throw error;
  }
}

/** Damage found while opening: the file is kept aside (never opened again as it is) and refused, naming both. */
function asCorruptError<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isCorruption(error)) {
      if (path === ':memory:') throw new DatabaseCorruptError(path, error);
      throw new DatabaseCorruptError(path, error, keepAside(path));
    }
    if (isLocked(error)) throw new DatabaseLockedError(path, error);
    if (path !== ':memory:') throw asDiskFull(error, dirname(path), `the local database ${path}`) ?? error;
    throw error;
  }
}
