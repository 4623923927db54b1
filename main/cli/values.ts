// Parses command-line values into request fields. Range rules are left to the contract's schemas,
// so the CLI and the app report the same words for the same mistake.
import { dataUriMime, isHttpUrl } from '../../shared/contract/common.ts';
import { toDataUri } from '../files/inspect-image.ts';

export class UsageError extends Error {
  readonly exitCode = 2;
}

/** `1.2,-1,0.5` → [1.2, -1, 0.5]. */
export function parseNumberList(option: string, text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (parts.some((p) => p === '') || numbers.some((n) => Number.isNaN(n))) {
    throw new UsageError(`--${option} takes numbers separated by commas, e.g. 1,2,0.5 (got "${text}").`);
  }
  return numbers;
}

export function parseNumber(option: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || Number.isNaN(n)) throw new UsageError(`--${option} takes a number (got "${text}").`);
  return n;
}

/** An image argument: an http(s) URL or data URI as given, or a local PNG/JPEG/WebP file (inspected) as a data URI. */
export async function imageArgument(value: string): Promise<string> {
  if (isHttpUrl(value) || dataUriMime(value) !== undefined) return value;
  return toDataUri(value);
}
