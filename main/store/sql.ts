// Small helpers shared by the repositories.
import { randomBytes } from 'node:crypto';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { RecordNotFoundError } from './errors.ts';

/** A local id such as `job_3f9c…`: a prefix and 80 random bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}

/** JSON for a nullable TEXT column: undefined and null are stored as NULL. */
export function toJsonColumn(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJsonColumn(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}

/** A LIKE pattern matching `text` anywhere, for use with `ESCAPE '\'`. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The row `statement` answers for the record `params` names (its id, or named parameters with its `id`):
 * RecordNotFoundError (of `table`) when there is none.
 */
export function requireRow(
  table: string,
  statement: StatementSync,
  params: string | ({ id: string } & Record<string, SQLInputValue>),
): unknown {
  const row = typeof params === 'string' ? statement.get(params) : statement.get(params);
  if (row === undefined) throw new RecordNotFoundError(table, typeof params === 'string' ? params : params.id);
  return row;
}
