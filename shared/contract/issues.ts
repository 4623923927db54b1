// Turns schema failures into field paths and sentences a user can act on.
import type * as z from 'zod';

export interface FieldIssue {
  /** e.g. `scaled_bbox[1]`, `input.mesh`, or `(body)` for the whole value. */
  path: string;
  message: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

export function describeIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: plainMessage(issue) }));
}

function plainMessage(issue: z.core.$ZodIssue): string {
  // zod's default texts for a missing value read "Invalid input: expected string, received undefined".
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return 'is required';
  if (issue.code === 'unrecognized_keys') return `has unknown field(s): ${issue.keys.join(', ')}`;
  return issue.message;
}

/** One line per issue: `field: rule`. */
export function issuesToText(issues: readonly FieldIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('; ');
}

export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): ParseOutcome<z.output<S>> {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: describeIssues(result.error) };
}
