// Parses command-line values into request fields. The range rules of request fields are left to the
// contract's schemas, so the CLI and the app report the same words for the same mistake; the CLI's own
// options (ports, timeouts, limits) have theirs in the command table.
import { dataUriMime, isHttpUrl } from '../../shared/contract/common.ts';
import { toDataUri } from '../files/inspect-image.ts';
import { parseDecimal, parseDecimalList } from './numbers.ts';

/**
 * `1.2,-1,0.5` → [1.2, -1, 0.5], plain decimals only (numbers.ts). The option's own rules were checked
 * when the command line was read (command-table.ts); request fields get theirs from the contract.
 */
export function parseNumberList(option: string, text: string): number[] {
  return parseDecimalList(`--${option}`, text);
}

/** A plain decimal (numbers.ts); see parseNumberList for where its rules are checked. */
export function parseNumber(option: string, text: string): number {
  return parseDecimal(`--${option}`, text);
}

/** An image argument: an http(s) URL or data URI as given, or a local PNG/JPEG/WebP file (inspected) as a data URI. */
export async function imageArgument(value: string): Promise<string> {
  if (isHttpUrl(value) || dataUriMime(value) !== undefined) return value;
  return toDataUri(value);
}
