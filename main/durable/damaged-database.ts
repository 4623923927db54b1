// A damaged SQLite database, for every database of main (the app's asset-studio.db, main/store; the embedded
// engine's engine.db, main/engine/state.ts). SQLite's words for damage (`isCorruption`); the damaged file kept
// aside, never overwritten and never deleted: renamed (with its -wal and -shm) to `<name>.damaged-<UTC time>`
// (`keepAside`, `damagedCopies`); its check (`integrityCheck`); and what SQLite can still read there copied
// into a new database of the current schema (`salvageInto`): table by table, row by row in rowid order, and,
// past a part that cannot be read, from the other end backwards. Rows that break a rule of the new schema
// (or that `accept` refuses) are skipped. The copy kept aside is never changed (opened read-only).
import { existsSync, linkSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { forgetClose } from './clean-close.ts';

/** The suffix of a copy kept aside, e.g. `asset-studio.db.damaged-20261127T101500Z`. */
const DAMAGED = '.damaged-';
// Primary SQLite result codes that mean "this file is not (or no longer) a database".
export const SQLITE_CORRUPT = 11;
export const SQLITE_NOTADB = 26;

/** True for SQLite's "damaged" result codes. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && [SQLITE_CORRUPT, SQLITE_NOTADB].includes(code & 0xff);
}

/** Renames the database and its -wal and -shm files aside; returns the new name of the database. */
export function keepAside(path: string, now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 0; ; n++) {
    const aside = `${path}${DAMAGED}${stamp}${n === 0 ? '' : `-${n}`}`;
    try {
      linkSync(path, aside); // EEXIST rather than over a copy already kept
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') continue;
      throw error;
    }
    unlinkSync(path);
    forgetClose(path); // its record of a clean close describes the file kept aside, not the next one
    for (const suffix of ['-wal', '-shm']) {
      if (!existsSync(path + suffix)) continue;
      linkSync(path + suffix, aside + suffix);
      unlinkSync(path + suffix);
    }
    return aside;
  }
}

/** The copies of this database kept aside, the newest last. */
export function damagedCopies(path: string): string[] {
  const name = `${basename(path)}${DAMAGED}`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(name) && !n.endsWith('-wal') && !n.endsWith('-shm'))
    .sort()
    .map((n) => join(dirname(path), n));
}

/** `ok`, or what PRAGMA integrity_check (or opening the file) found. */
export function integrityCheck(path: string): string {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare('PRAGMA integrity_check(20)').all() as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } catch (error) {
    if (isCorruption(error)) return messageOf(error);
    throw error;
  } finally {
    db?.close();
  }
}

export interface TableSalvage {
  table: string;
  /** Rows copied into the new database. */
  rows: number;
  /** Part of the table could not be read (rows there are lost); the text SQLite gave. */
  unreadable: string | null;
}

export interface SalvageOptions {
  /** Whether a row read from `table` is worth keeping (e.g. its JSON parses); default: every row. */
  accept?: (table: string, row: Record<string, unknown>) => boolean;
}

/**
 * Copies the rows SQLite can read from the database at `sourcePath` into `target` (its tables made already, in
 * a transaction of the caller's), for each table of `target` with the columns both have.
 */
export function salvageInto(target: DatabaseSync, sourcePath: string, options: SalvageOptions = {}): TableSalvage[] {
  const tables = (
    target.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  ).map((t) => t.name);
  let source: DatabaseSync;
  try {
    source = new DatabaseSync(sourcePath, { readOnly: true });
  } catch (error) {
    const why = messageOf(error);
    return tables.map((table) => ({ table, rows: 0, unreadable: why }));
  }
  try {
    return tables.map((table) => salvageTable(target, source, table, options.accept));
  } finally {
    source.close();
  }
}

function salvageTable(
  target: DatabaseSync,
  source: DatabaseSync,
  table: string,
  accept: SalvageOptions['accept'],
): TableSalvage {
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const columnsOf = (db: DatabaseSync) =>
    (db.prepare(`PRAGMA table_info(${quoted(table)})`).all() as { name: string }[]).map((c) => c.name);
  let columns: string[];
  try {
    const there = new Set(columnsOf(source));
    columns = columnsOf(target).filter((c) => there.has(c));
  } catch (error) {
    return { table, rows: 0, unreadable: messageOf(error) };
  }
  if (columns.length === 0) return { table, rows: 0, unreadable: null }; // not in the damaged file's schema
  const list = columns.map(quoted).join(', ');
  const insert = target.prepare(
    `INSERT OR IGNORE INTO ${quoted(table)} (${list}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  let rows = 0;
  let unreadable: string | null = null;
  let lastRowid: number | bigint | undefined;
  const copy = (sql: string, ...params: (number | bigint)[]) => {
    const read = source.prepare(sql);
    read.setReturnArrays(true);
    for (const row of read.iterate(...params) as Iterable<unknown[]>) {
      const [rowid, ...values] = row;
      lastRowid = rowid as number;
      if (accept && !accept(table, Object.fromEntries(columns.map((c, i) => [c, values[i]])))) continue;
      if (insert.run(...(values as never[])).changes > 0) rows++;
    }
  };
  try {
    copy(`SELECT rowid, ${list} FROM ${quoted(table)} ORDER BY rowid`);
    return { table, rows, unreadable };
  } catch (error) {
    unreadable = messageOf(error);
  }
  // Past the part that cannot be read: from the other end, backwards, down to it.
  try {
    copy(`SELECT rowid, ${list} FROM ${quoted(table)} WHERE rowid > ? ORDER BY rowid DESC`, lastRowid ?? -1);
  } catch {
    // the rows between the two damaged ends are lost
  }
  return { table, rows, unreadable };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
