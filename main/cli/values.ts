// Parses command-line values into request fields. Range rules are left to the contract's schemas,
// so the CLI and the app report the same words for the same mistake.
import { readFileSync, statSync } from 'node:fs';
import { dataUriMime, isHttpUrl } from '../../shared/contract/common.ts';

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

const IMAGE_MAGIC: [string, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/webp', (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP'],
];

/** An image argument: an http(s) URL or data URI as given, or a local PNG/JPEG/WebP file as a data URI. */
export function imageArgument(value: string): string {
  if (isHttpUrl(value) || dataUriMime(value) !== undefined) return value;
  let bytes: Buffer;
  try {
    if (!statSync(value).isFile()) throw new Error('not a file');
    bytes = readFileSync(value);
  } catch {
    throw new UsageError(`"${value}" is neither an http(s) URL, a data URI, nor a readable image file. Give an image URL or the path of a PNG, JPEG or WebP file.`);
  }
  const mime = IMAGE_MAGIC.find(([, test]) => test(bytes))?.[0];
  if (mime === undefined) {
    throw new UsageError(`${value} is not a PNG, JPEG or WebP image (its first bytes do not match). Convert it to PNG or JPEG and try again.`);
  }
  return `data:${mime};base64,${bytes.toString('base64')}`;
}
