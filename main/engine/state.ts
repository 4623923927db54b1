// The engine's records, kept in <dataDir>/engine.db (node:sqlite, WAL): one row per record (a session, an asset,
// a style, an account's credits), its body as JSON. All rows are loaded at start into the live state the session
// modules read and change in place; a save writes only the rows that changed, in one transaction.
//
// Which rows a save writes: a row inserted into or deleted from a table of the state (the tables are proxies that
// see this), and the rows of the objects given to `save(...changed)` (a record, or any object inside one: an
// input of a session names its row). Each of those rows is written when its JSON differs from what was last
// written. `save()` with nothing given compares every row: always right, but it costs the whole state, so the
// engine's own code names what it changed. ASSET_STUDIO_ENGINE_CHECK_SAVES=1 compares every row after each
// named save too and reports a row changed but not named (a development check).
//
// An older engine's state.json (the whole state, rewritten after every change) is moved into the database
// when the folder is opened, once; the file is then renamed state.json.migrated, never deleted.
//
// A damaged engine.db (not a SQLite file, cut short, a page SQLite's check or a read finds damaged, a row that
// is not JSON) is kept aside as `engine.db.damaged-<UTC time>` (never changed nor deleted), and the engine
// starts on a new database holding the records that could still be read from it, as the app's own database
// is salvaged by `asset-studio doctor` (the same code: main/durable/damaged-database.ts). What was kept, what
// was lost and where the damaged copy is are said in one notice (`notice`, else `log`, else standard error).
//
// A zero-length engine.db where the engine kept records before (its -wal file, or the record of its last clean
// close, is beside it) is no new database: its sessions and credits would be gone with no word. It is kept aside
// the same way and refused, naming the file; so is the absence of engine.db while such an emptied copy waits. A
// database another process keeps locked past the wait is a DatabaseLockedError naming the file.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { recordClose, unchangedSinceClose } from '../durable/clean-close.ts';
import { isCorruption, keepAside, salvageInto } from '../durable/damaged-database.ts';
import { asLocked } from '../durable/locked-database.ts';
import { EngineStateError, refuseEmptied } from './state-file.ts';

export { EngineStateEmptiedError, EngineStateError } from './state-file.ts';
import { fsyncDirSync } from '../durable/write-file.ts';
import type { AnimationRecord } from './sessions/animation-record.ts';
import type { AssetRecord } from './sessions/assets.ts';
import type { GenerationRecord } from './sessions/generation.ts';
import type { ImageTo3dRecord } from './sessions/image-to-3d.ts';
import type { RetopologyRecord } from './sessions/retopology.ts';
import type { StyleRecord, TextToImageRecord } from './sessions/text-to-image.ts';

const VERSION = 1;

export interface EngineState {
  version: typeof VERSION;
  /** Remaining credits per account (user id); an account missing here has not spent any yet. */
  credits: Record<string, number>;
  /** Every table keeps insertion order, which is creation order. */
  imageTo3d: Record<string, ImageTo3dRecord>;
  textToImage: Record<string, TextToImageRecord>;
  styles: Record<string, StyleRecord>;
  animations: Record<string, AnimationRecord>;
  retopology: Record<string, RetopologyRecord>;
  /** /v3 sessions of type image_to_3d and image_to_kit. */
  generations: Record<string, GenerationRecord>;
  assets: Record<string, AssetRecord>;
}

export type TableName = Exclude<keyof EngineState, 'version'>;
export const TABLES: readonly TableName[] = [
  'credits',
  'imageTo3d',
  'textToImage',
  'styles',
  'animations',
  'retopology',
  'generations',
  'assets',
];

export const DATABASE_FILE = 'engine.db';
export const STATE_JSON_FILE = 'state.json';
export const CHECK_SAVES_ENV = 'ASSET_STUDIO_ENGINE_CHECK_SAVES';

/**
 * The schema's history (`PRAGMA user_version`): entry i brings the database from version i to i + 1. Entries are
 * never edited once released; a change is a new entry at the end.
 */
const MIGRATIONS: readonly string[] = [
  `
CREATE TABLE records (
  seq  INTEGER PRIMARY KEY,   -- insertion order, which is creation order
  tbl  TEXT NOT NULL,         -- the table of the state: imageTo3d, assets, credits…
  id   TEXT NOT NULL,         -- the record's key in that table (session code, asset id, user id…)
  body TEXT NOT NULL,         -- the record as JSON
  UNIQUE (tbl, id)
);
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`,
];

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** meta key: sha256 of the state.json moved into this database. */
const MIGRATED_KEY = 'migrated_state_json_sha256';

export interface StateStore {
  /** The live records; change them in place, then save. */
  readonly state: EngineState;
  /**
   * Writes the rows that changed: those inserted or deleted since the last save, and those of the objects given
   * (records, or objects inside records). With nothing given, every row is compared. Durable once it resolves.
   */
  save(...changed: object[]): Promise<void>;
  /** Writes what is pending and closes the database; later saves are ignored. */
  close(): Promise<void>;
}

/** The engine's records database is damaged: kept aside and salvaged when the engine starts (openState). */
export class EngineStateDamagedError extends EngineStateError {
  /** What is damaged, in words. */
  readonly detail: string;

  constructor(path: string, detail: string, options?: ErrorOptions) {
    super(
      path,
      `The engine's records database ${path} is damaged (${detail}): this change was not saved. Restart the ` +
        `engine (or Asset Studio): it keeps the damaged file aside as ${DATABASE_FILE}.damaged-<time> and starts ` +
        'on a new one holding the records that can still be read.',
      options,
    );
    this.name = 'EngineStateDamagedError';
    this.detail = detail;
  }
}

export interface OpenStateOptions {
  /** What the user must read: the damaged database kept aside and salvaged (default `log`, else standard error). */
  notice?: (line: string) => void;
  /**
   * Where notices go (the migration of a state.json, rows changed but not named in checked saves, a damaged
   * database kept aside and salvaged: that one, with no `log`, as a process warning).
   */
  log?: (line: string) => void;
  /** Compare every row after each named save and report misses (default: ASSET_STUDIO_ENGINE_CHECK_SAVES=1). */
  checkSaves?: boolean;
}

type RowKey = string; // `${table}\u0000${id}`
const rowKey = (table: TableName, id: string): RowKey => `${table}\u0000${id}`;
const splitKey = (key: RowKey): [TableName, string] => {
  const at = key.indexOf('\u0000');
  return [key.slice(0, at) as TableName, key.slice(at + 1)];
};

export async function openState(dataDir: string, options: OpenStateOptions = {}): Promise<StateStore> {
  const path = join(dataDir, DATABASE_FILE);
  const log = options.log ?? (() => undefined);
  const checkSaves = options.checkSaves ?? process.env[CHECK_SAVES_ENV] === '1';
  const open = (db: DatabaseSync) => {
    try {
      migrateStateJson(db, path, join(dataDir, STATE_JSON_FILE), log);
      return new SqliteStateStore(db, path, loadRows(db, path), checkSaves);
    } catch (error) {
      db.close();
      throw error;
    }
  };
  try {
    return open(openDatabase(path));
  } catch (error) {
    if (!(error instanceof EngineStateDamagedError)) throw error;
    const salvaged = salvageDamaged(path, error.detail);
    (options.notice ?? options.log ?? ((line: string) => void process.stderr.write(`${line}\n`)))(salvaged.notice);
    return open(salvaged.db);
  }
}

// ---- opening ---------------------------------------------------------------------------------------

function damaged(path: string, detail: string, cause?: unknown): EngineStateDamagedError {
  return new EngineStateDamagedError(path, detail, cause === undefined ? undefined : { cause });
}

function asDamaged<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isCorruption(error)) throw damaged(path, `SQLite says: ${(error as Error).message}`, error);
    throw asLocked(error, path);
  }
}

/**
 * The damaged database kept aside, and a new one in its place holding the records that can still be read
 * from it (a row of a table the engine does not know, or whose body is not JSON, is left out); the notice
 * says how many were kept and lost, and where the damaged copy is.
 */
function salvageDamaged(path: string, detail: string): { db: DatabaseSync; notice: string } {
  const keptAs = keepAside(path);
  const db = openDatabase(path);
  try {
    const known = new Set<string>(TABLES);
    let skipped = 0;
    const accept = (table: string, row: Record<string, unknown>) => {
      if (table !== 'records') return true;
      const ok = typeof row.tbl === 'string' && known.has(row.tbl) && typeof row.body === 'string' && isJson(row.body);
      if (!ok) skipped++;
      return ok;
    };
    const tables = transaction(db, () => salvageInto(db, keptAs, { accept }));
    const records = tables.find((t) => t.table === 'records');
    const kept = records?.rows ?? 0;
    const lost = [
      records?.unreadable &&
        `a part of it could not be read (SQLite says: ${records.unreadable}): the records there are lost`,
      skipped > 0 && `${skipped} record${skipped === 1 ? ' was' : 's were'} not readable and left out`,
    ].filter(Boolean);
    const notice =
      `engine: its records database ${path} was damaged (${detail}). It is kept aside, unchanged, as ${keptAs}, and ` +
      `the engine started on a new database holding the ${kept} record${kept === 1 ? '' : 's'} (sessions, assets, credits) ` +
      `that could still be read${lost.length ? `; ${lost.join('; ')}` : ''}. A session not among them is no longer known ` +
      'to the engine: create it again. To look into the damaged copy yourself, open it with any SQLite tool.';
    return { db, notice };
  } catch (error) {
    db.close();
    throw error;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function openDatabase(path: string): DatabaseSync {
  // Before SQLite opens it (and makes its -wal file): is it as the engine's last close left it? Then the check of
  // every page below is skipped (its reading of every record at start meets damage there anyway).
  refuseEmptied(path);
  const unchanged = unchangedSinceClose(path);
  if (existsSync(path)) {
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    const fd = openSync(path, 'r');
    let read: number;
    try {
      read = readSync(fd, header, 0, header.length, 0);
    } finally {
      closeSync(fd);
    }
    // An empty file is an empty database (SQLite makes one so); anything else must start with SQLite's magic.
    if (read > 0 && !header.subarray(0, read).equals(SQLITE_MAGIC.subarray(0, read)))
      throw damaged(path, 'it is not a SQLite database');
    if (read > 0 && read < SQLITE_MAGIC.length) throw damaged(path, 'it is cut short');
  } else {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600)); // private before SQLite opens it (its -wal and -shm files take its mode)
  }
  return asDamaged(path, () => {
    const db = new DatabaseSync(path);
    try {
      // WAL with synchronous=FULL: each commit is on disk (the WAL synced) before the save resolves and the
      // client gets its answer, as the state.json writes were; see README.md.
      db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
      // SQLite's own check of every page, unless the file is as the last clean close left it
      // (main/durable/clean-close.ts): damage is found here, at once, not by a later save.
      const found = unchanged
        ? []
        : (db.prepare('PRAGMA quick_check').all() as { quick_check: string }[])
            .map((r) => r.quick_check)
            .filter((line) => line !== 'ok');
      if (found.length > 0) throw damaged(path, `SQLite's check found: ${found.slice(0, 3).join('; ')}`);
      transaction(db, () => {
        const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
        if (version > MIGRATIONS.length)
          throw new EngineStateError(
            path,
            `The engine's records database ${path} was written by a newer version of Asset Studio (schema ${version}, ` +
              `this version knows up to ${MIGRATIONS.length}). Update Asset Studio, or give the engine another data folder. The file was not changed.`,
          );
        for (const migration of MIGRATIONS.slice(version)) db.exec(migration);
        if (version < MIGRATIONS.length) db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
      });
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function loadRows(db: DatabaseSync, path: string): Map<RowKey, { value: unknown; json: string }> {
  const rows = new Map<RowKey, { value: unknown; json: string }>();
  const known = new Set<string>(TABLES);
  asDamaged(path, () => {
    for (const row of db.prepare('SELECT tbl, id, body FROM records ORDER BY seq').iterate()) {
      const { tbl, id, body } = row as { tbl: string; id: string; body: string };
      if (!known.has(tbl)) throw damaged(path, `a row of an unknown table ${JSON.stringify(tbl)}`);
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch (error) {
        throw damaged(path, `the row ${tbl}/${id} is not valid JSON: ${(error as Error).message}`, error);
      }
      rows.set(rowKey(tbl as TableName, id), { value, json: body });
    }
  });
  return rows;
}

/**
 * Moves an older engine's state.json into the (empty) database, in one transaction, then renames it aside. A
 * state.json found beside a database that already took it (the engine stopped between the two) is renamed aside;
 * one beside a database that holds other records is refused, naming both files.
 */
function migrateStateJson(db: DatabaseSync, dbPath: string, jsonPath: string, log: (line: string) => void): void {
  let text: string;
  try {
    text = readFileSync(jsonPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  const migrated = db.prepare('SELECT value FROM meta WHERE key = ?').get(MIGRATED_KEY) as
    | { value: string }
    | undefined;
  if (migrated?.value === sha256) {
    renameAside(jsonPath, log);
    return;
  }
  const count = (db.prepare('SELECT count(*) AS n FROM records').get() as { n: number }).n;
  if (migrated !== undefined || count > 0) {
    throw new EngineStateError(
      jsonPath,
      `The engine's data folder holds both an older engine's state ${jsonPath} and the records database ${dbPath}, ` +
        `which already has ${count} records${migrated !== undefined ? ' and was made from another state.json' : ''}. ` +
        `Move one of them away: move ${jsonPath} aside to keep the database, or move the database (and its -wal file) aside to start from the state.json. Nothing was changed.`,
    );
  }
  const state = parseStateJson(jsonPath, text);
  const insert = db.prepare('INSERT INTO records (tbl, id, body) VALUES (?, ?, ?)');
  let rows = 0;
  transaction(db, () => {
    for (const table of TABLES) {
      for (const [id, value] of Object.entries(state[table] ?? {})) {
        insert.run(table, id, JSON.stringify(value));
        rows++;
      }
    }
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(MIGRATED_KEY, sha256);
  });
  renameAside(jsonPath, log);
  log(
    `engine: moved ${rows} records of ${jsonPath} into ${dbPath}; the old file is kept as ${STATE_JSON_FILE}.migrated`,
  );
}

function parseStateJson(path: string, text: string): Partial<EngineState> {
  let value: Partial<EngineState>;
  try {
    value = JSON.parse(text) as Partial<EngineState>;
  } catch (error) {
    throw new EngineStateError(
      path,
      `The engine state ${path} is not valid JSON (${(error as Error).message}); move it away to start afresh.`,
    );
  }
  if (value === null || typeof value !== 'object' || value.version !== VERSION)
    throw new EngineStateError(
      path,
      `The engine state ${path} has version ${value?.version}; this engine reads version ${VERSION}.`,
    );
  return value;
}

/** state.json → state.json.migrated (or .migrated-2, -3… when that name is taken), the rename synced. */
function renameAside(jsonPath: string, log: (line: string) => void): void {
  let target = `${jsonPath}.migrated`;
  for (let n = 2; existsSync(target); n++) target = `${jsonPath}.migrated-${n}`;
  renameSync(jsonPath, target);
  fsyncDirSync(join(jsonPath, '..'));
  if (!target.endsWith('.migrated')) log(`engine: the older state ${jsonPath} was renamed ${target}`);
}

// ---- the live state and its saves ----------------------------------------------------------------------

class SqliteStateStore implements StateStore {
  readonly state: EngineState;
  private readonly db: DatabaseSync;
  private readonly path: string;
  private readonly checkSaves: boolean;
  /** The raw tables behind the proxies of `state`. */
  private readonly raw = new Map<TableName, Record<string, unknown>>();
  /** The JSON last written of every row. */
  private readonly written = new Map<RowKey, string>();
  /** The row each object inside a record belongs to. */
  private readonly owner = new WeakMap<object, RowKey>();
  /** Rows inserted, replaced or deleted since the last save. */
  private readonly touched = new Set<RowKey>();
  private readonly upsert: StatementSync;
  private readonly remove: StatementSync;
  private closed = false;

  constructor(
    db: DatabaseSync,
    path: string,
    rows: Map<RowKey, { value: unknown; json: string }>,
    checkSaves: boolean,
  ) {
    this.db = db;
    this.path = path;
    this.checkSaves = checkSaves;
    for (const table of TABLES) this.raw.set(table, {});
    for (const [key, { value, json }] of rows) {
      const [table, id] = splitKey(key);
      this.raw.get(table)![id] = value;
      this.written.set(key, json);
      this.own(key, value);
    }
    const state = { version: VERSION } as EngineState;
    for (const table of TABLES) (state as unknown as Record<string, unknown>)[table] = this.tableProxy(table);
    this.state = state;
    this.upsert = db.prepare(
      'INSERT INTO records (tbl, id, body) VALUES (?, ?, ?) ON CONFLICT (tbl, id) DO UPDATE SET body = excluded.body',
    );
    this.remove = db.prepare('DELETE FROM records WHERE tbl = ? AND id = ?');
  }

  /** A table whose insertions, replacements and deletions mark their rows. */
  private tableProxy(table: TableName): Record<string, unknown> {
    const store = this;
    return new Proxy(this.raw.get(table)!, {
      set(target, id, value, receiver) {
        if (typeof id !== 'string') return Reflect.set(target, id, value, receiver);
        target[id] = value;
        const key = rowKey(table, id);
        store.touched.add(key);
        store.own(key, value);
        return true;
      },
      deleteProperty(target, id) {
        if (typeof id === 'string' && Object.hasOwn(target, id)) store.touched.add(rowKey(table, id));
        return Reflect.deleteProperty(target, id);
      },
      defineProperty(target, id, descriptor) {
        if (typeof id === 'string') store.touched.add(rowKey(table, id));
        return Reflect.defineProperty(target, id, descriptor);
      },
    });
  }

  /** Records `key` as the row of `value` and of every object inside it. */
  private own(key: RowKey, value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    this.owner.set(value, key);
    for (const item of Array.isArray(value) ? value : Object.values(value)) this.own(key, item);
  }

  save(...changed: object[]): Promise<void> {
    if (this.closed) return Promise.resolve();
    let writes = new Map<RowKey, string | undefined>();
    try {
      const rows = new Set(this.touched);
      let everything = changed.length === 0;
      for (const object of changed) {
        const key = this.owner.get(object);
        if (key === undefined)
          everything = true; // not (yet) inside a record: compare them all
        else rows.add(key);
      }
      writes = this.changedRows(everything ? this.allRows() : rows);
      if (this.checkSaves && !everything) this.reportMisses(writes);
      this.touched.clear();
      this.write(writes);
      return Promise.resolve();
    } catch (error) {
      for (const key of writes.keys()) this.touched.add(key); // written by the next save
      return Promise.reject(error);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.touched.size > 0) this.write(this.changedRows(this.touched));
    } finally {
      this.closed = true;
      this.db.close();
      recordClose(this.path); // the next start skips the check of every page while the file stays as it is
    }
  }

  private allRows(): Set<RowKey> {
    const keys = new Set(this.written.keys()); // deleted ones too
    for (const [table, rows] of this.raw) for (const id of Object.keys(rows)) keys.add(rowKey(table, id));
    return keys;
  }

  /** The rows among `keys` whose JSON differs from what was written: the new JSON, or undefined for a deleted row. */
  private changedRows(keys: Iterable<RowKey>): Map<RowKey, string | undefined> {
    const writes = new Map<RowKey, string | undefined>();
    for (const key of keys) {
      if (writes.has(key)) continue;
      const [table, id] = splitKey(key);
      const rows = this.raw.get(table)!;
      const json = Object.hasOwn(rows, id) ? JSON.stringify(rows[id]) : undefined;
      if (json !== this.written.get(key)) writes.set(key, json);
    }
    return writes;
  }

  private reportMisses(writes: Map<RowKey, string | undefined>): void {
    for (const [key, json] of this.changedRows(this.allRows())) {
      if (writes.has(key)) continue;
      writes.set(key, json);
      const [table, id] = splitKey(key);
      process.stderr.write(`engine: ${table}/${id} changed but its save did not name it\n${new Error('save').stack}\n`);
    }
  }

  private write(writes: Map<RowKey, string | undefined>): void {
    if (writes.size === 0) return;
    asDamaged(this.path, () =>
      transaction(this.db, () => {
        for (const [key, json] of writes) {
          const [table, id] = splitKey(key);
          if (json === undefined) this.remove.run(table, id);
          else this.upsert.run(table, id, json);
        }
      }),
    );
    for (const [key, json] of writes) {
      if (json === undefined) {
        this.written.delete(key);
        continue;
      }
      this.written.set(key, json);
      const [table, id] = splitKey(key);
      this.own(key, this.raw.get(table)![id]); // objects put into the record since
    }
  }
}
