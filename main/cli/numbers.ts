// The one parser of numbers on the command line: plain decimals only (`12`, `-1`, `0.5`), never `0x10`,
// `1e3`, `Infinity` or an empty value, which `Number()` would take. Each option states whether it takes a
// whole number and its range; an error names the option, the rule and the value given.
import { UsageError } from './usage-error.ts';

export interface NumberRule {
  integer?: boolean;
  min?: number;
  max?: number;
  /** The minimum itself is not allowed (`above 0`). */
  minExclusive?: boolean;
  /** What the number counts, for the message: `seconds`, `metres`. */
  unit?: string;
}

const PLAIN_DECIMAL = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;

/** `a whole number from 0 to 65535`, `a number above 0 (seconds)`. */
export function describeRule(rule: NumberRule): string {
  const what = rule.integer ? 'a whole number' : 'a number';
  const { min, max } = rule;
  let range = '';
  if (min !== undefined && max !== undefined)
    range = rule.minExclusive ? ` above ${min} and at most ${max}` : ` from ${min} to ${max}`;
  else if (min !== undefined)
    range = rule.minExclusive ? ` above ${min}` : rule.integer && min === 1 ? ' of 1 or more' : ` of at least ${min}`;
  else if (max !== undefined) range = ` of at most ${max}`;
  return `${what}${range}${rule.unit ? ` (${rule.unit})` : ''}`;
}

/** Why `n` breaks the rule, or undefined when it keeps it. */
function broken(n: number, rule: NumberRule): string | undefined {
  if (rule.integer && !Number.isInteger(n)) return 'not a whole number';
  if (rule.min !== undefined && (rule.minExclusive ? n <= rule.min : n < rule.min)) return 'too small';
  if (rule.max !== undefined && n > rule.max) return 'too large';
  return undefined;
}

/** A plain decimal, or undefined for any other text (hex, exponent, blank, too many digits to be finite). */
export function plainDecimal(text: string): number | undefined {
  const trimmed = text.trim();
  if (!PLAIN_DECIMAL.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * `name` is how the value is named in messages: `--port`, or `<count>` for an argument.
 * Throws a UsageError (exit 2) when `text` is not a plain decimal or breaks the rule.
 */
export function parseDecimal(name: string, text: string, rule: NumberRule = {}): number {
  const n = plainDecimal(text);
  if (n === undefined)
    throw new UsageError(
      `${name} takes ${describeRule(rule)} written as a plain decimal, e.g. ${example(rule)} (got "${text}").`,
    );
  const why = broken(n, rule);
  if (why) throw new UsageError(`${name} takes ${describeRule(rule)} (got "${text}": ${why}).`);
  return n;
}

/** `1.2,-1,0.5` → [1.2, -1, 0.5]; each item a plain decimal that keeps `rule`. */
export function parseDecimalList(name: string, text: string, rule: NumberRule = {}): number[] {
  const parts = text.split(',');
  return parts.map((part) => {
    const n = plainDecimal(part);
    if (n === undefined) {
      const what = part.trim() === '' ? 'an empty item' : `"${part.trim()}" is not a plain decimal`;
      throw new UsageError(
        `${name} takes numbers written as plain decimals and separated by commas, e.g. 1,-1,0.5 (got "${text}": ${what}).`,
      );
    }
    const why = broken(n, rule);
    if (why)
      throw new UsageError(
        `${name} takes numbers that are each ${describeRule(rule)} (got "${text}": ${part.trim()} is ${why}).`,
      );
    return n;
  });
}

function example(rule: NumberRule): string {
  if (rule.integer) return String(Math.max(rule.min ?? 0, Math.min(rule.max ?? 10, 10)));
  return rule.min !== undefined && rule.min >= 1 ? String(rule.min + 0.5) : '2.5';
}
