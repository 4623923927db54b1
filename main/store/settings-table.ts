// Table `settings`: app settings as JSON values by key. Values are validated when read, so a value
// written by another version (or by hand) that no longer fits is never handed to the app.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type * as z from 'zod';
import { describeIssues, issuesToText } from '../../shared/contract/issues.ts';

/** Receives the warning about a stored value that is unreadable or does not fit its schema. */
export type Warn = (message: string) => void;

export class SettingsRepository {
  readonly #warn: Warn;
  readonly #get: StatementSync;
  readonly #set: StatementSync;
  readonly #delete: StatementSync;
  readonly #all: StatementSync;

  constructor(db: DatabaseSync, warn: Warn) {
    this.#warn = warn;
    this.#get = db.prepare('SELECT value FROM settings WHERE key = ?');
    this.#set = db.prepare(
      'INSERT INTO settings (key, value) VALUES (:key, :value) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    this.#delete = db.prepare('DELETE FROM settings WHERE key = ?');
    this.#all = db.prepare('SELECT key, value FROM settings ORDER BY key');
  }

  /**
   * The stored value, validated with `schema`; undefined when there is none. A stored value that is
   * not JSON or fails the schema is reported through `warn` and read as undefined (so the caller's
   * default applies); it stays in the database until the setting is set again.
   */
  get<T>(key: string, schema: z.ZodType<T>): T | undefined {
    const row = this.#get.get(key) as { value: string } | undefined;
    if (row === undefined) return undefined;
    const stored = this.#parse(key, row.value);
    if (!stored.ok) return undefined;
    const result = schema.safeParse(stored.value);
    if (result.success) return result.data;
    this.#warn(
      `The stored setting "${key}" is invalid (${issuesToText(describeIssues(result.error))}); the default is used until it is set again.`,
    );
    return undefined;
  }

  set(key: string, value: unknown): void {
    const json = JSON.stringify(value);
    if (json === undefined)
      throw new TypeError(`The setting "${key}" cannot be stored: its value is not JSON (use delete() to remove it).`);
    this.#set.run({ key, value: json });
  }

  /** True when there was a value. */
  delete(key: string): boolean {
    return Number(this.#delete.run(key).changes) === 1;
  }

  /** Every readable setting, unvalidated (for export and diagnostics). */
  all(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const row of this.#all.all() as { key: string; value: string }[]) {
      const stored = this.#parse(row.key, row.value);
      if (stored.ok) out[row.key] = stored.value;
    }
    return out;
  }

  #parse(key: string, text: string): { ok: true; value: unknown } | { ok: false } {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      this.#warn(`The stored setting "${key}" is not valid JSON; the default is used until it is set again.`);
      return { ok: false };
    }
  }
}
