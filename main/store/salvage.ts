// `asset-studio doctor`: checks the database (PRAGMA integrity_check) and, when it is damaged, keeps it aside
// and salvages what SQLite can still read from it into a new database (main/durable/damaged-database.ts, which
// the engine's engine.db uses too). The copy kept aside is never changed (opened read-only).
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import {
  damagedCopies,
  integrityCheck,
  keepAside,
  salvageInto,
  type TableSalvage,
} from '../durable/damaged-database.ts';
import { openDatabase } from './database.ts';

export type { TableSalvage } from '../durable/damaged-database.ts';

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
