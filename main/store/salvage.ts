// `asset-studio doctor`: checks the database (PRAGMA integrity_check) and, when it is damaged, keeps it aside
// (damaged.ts) and salvages what SQLite can still read from it into a new database: table by table, row by
// row in rowid order, and, past a part that cannot be read, from the other end backwards. Rows that break a
// rule of the new schema are skipped. The copy kept aside is never changed (opened read-only).
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { damagedCopies, keepAside } from './damaged.ts';
import { openDatabase } from './database.ts';
import { isCorruption } from './guarded-handle.ts';

export interface TableSalvage {
  table: string;
  /** Rows copied into the new database. */
  rows: number;
  /** Part of the table could not be read (rows there are lost); the text SQLite gave. */
  unreadable: string | null;
}

export interface DoctorReport {
  path: string;
  /** `intact`: nothing to do; `salvaged`: a new database holds what could be read; `none`: there is no database yet. */
  outcome: 'intact' | 'salvaged' | 'none';
  /** What the check found: `ok`, or the damage. */
  check: string;
  /** Where the damaged file is kept (salvaged only). */
  keptAs: string | null;
  tables: TableSalvage[];
}

/** Checks the database at `path`; salvages a damaged one (or one kept aside earlier) into a new one there. */
export function doctorDatabase(path: string, now: Date = new Date()): DoctorReport {
  let source: string;
  let check: string;
  if (existsSync(path)) {
    check = statSync(path).size === 0 ? 'the file is empty' : integrityCheck(path);
    if (check === 'ok') return { path, outcome: 'intact', check, keptAs: null, tables: [] };
    source = keepAside(path, now);
  } else {
    const earlier = damagedCopies(path).at(-1);
    if (earlier === undefined) return { path, outcome: 'none', check: 'no database yet', keptAs: null, tables: [] };
    source = earlier;
    check = `kept aside earlier as ${earlier}`;
  }
  openDatabase(path, { replaceDamaged: true }).close(); // a new database of the current schema
  const target = new DatabaseSync(path);
  try {
    target.exec('PRAGMA foreign_keys = OFF; BEGIN IMMEDIATE');
    const tables = salvageInto(target, source);
    target.exec('COMMIT');
    return { path, outcome: 'salvaged', check, keptAs: source, tables };
  } catch (error) {
    if (target.isTransaction) target.exec('ROLLBACK');
    throw error;
  } finally {
    target.close();
  }
}

/** `ok`, or what PRAGMA integrity_check (or opening the file) found. */
function integrityCheck(path: string): string {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare('PRAGMA integrity_check(20)').all() as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } catch (error) {
    if (isCorruption(error)) return error instanceof Error ? error.message : String(error);
    throw error;
  } finally {
    db?.close();
  }
}

function salvageInto(target: DatabaseSync, sourcePath: string): TableSalvage[] {
  const tables = (
    target.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as {
      name: string;
    }[]
  ).map((t) => t.name);
  let source: DatabaseSync;
  try {
    source = new DatabaseSync(sourcePath, { readOnly: true });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return tables.map((table) => ({ table, rows: 0, unreadable: why }));
  }
  try {
    return tables.map((table) => salvageTable(target, source, table));
  } finally {
    source.close();
  }
}

function salvageTable(target: DatabaseSync, source: DatabaseSync, table: string): TableSalvage {
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
      if (insert.run(...(values as never[])).changes > 0) rows++;
      lastRowid = rowid as number;
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
