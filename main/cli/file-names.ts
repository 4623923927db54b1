// File names that are not valid UTF-8. On Linux a name is any bytes, but process.argv holds them decoded
// lossily (each invalid byte becomes U+FFFD), so the path given to the CLI names no file. Such a path is
// found again by its bytes (each folder's entries read as bytes, decoded the same way, compared), and the
// rest of the CLI gets an alias: a link, in a private temporary folder and with the name as given, to the
// file's real bytes. What the CLI prints shows the path as given, never the alias.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve, sep } from 'node:path';
import { UsageError } from './usage-error.ts';

const SEPARATOR = Buffer.from(sep);

/**
 * The bytes of the existing path that `given` (a lossily decoded path) stands for, or undefined when
 * there is none. Throws a UsageError when several entries of a folder decode to the same name.
 */
export function findByBytes(given: string): Buffer | undefined {
  if (process.platform === 'win32') return undefined; // names are UTF-16 there, never decoded lossily
  let current = SEPARATOR;
  for (const part of resolve(given)
    .split(sep)
    .filter((p) => p !== '')) {
    const prefix = current.equals(SEPARATOR) ? current : Buffer.concat([current, SEPARATOR]);
    const direct = Buffer.concat([prefix, Buffer.from(part)]);
    if (existsSync(direct)) {
      current = direct;
      continue;
    }
    let entries: Buffer[];
    try {
      entries = readdirSync(current, { encoding: 'buffer' });
    } catch {
      return undefined;
    }
    const matches = entries.filter((entry) => entry.toString('utf8') === part);
    if (matches.length === 0) return undefined;
    if (matches.length > 1) {
      throw new UsageError(
        `"${given}" matches ${matches.length} entries of its folder whose names differ only in bytes that are not valid UTF-8. ` +
          'Rename the file (e.g. with your file manager) so that its name is unique, and try again.',
      );
    }
    current = Buffer.concat([prefix, matches[0]!]);
  }
  return current;
}

/** Aliases made for the paths of one run of the CLI; `close` removes them (never the files they point to). */
export class PathAliases {
  #dir: string | undefined;
  /** alias → the path as given */
  readonly #given = new Map<string, string>();

  /**
   * `given` itself when it exists, was decoded without loss (no U+FFFD: nothing to find by bytes; a path such
   * as `new/../game` that does not exist yet stays as it is) or nothing matches it by bytes (its use then
   * says what is wrong); else an alias.
   */
  resolve(given: string): string {
    if (given === '' || !given.includes('\uFFFD') || existsSync(given)) return given;
    const bytes = findByBytes(given);
    if (bytes === undefined) return given;
    this.#dir ??= mkdtempSync(join(tmpdir(), 'asset-studio-names-'));
    const folder = join(this.#dir, String(this.#given.size));
    mkdirSync(folder);
    const alias = join(folder, basename(resolve(given))); // not `..`: the alias is named like what it points to
    symlinkSync(bytes, alias);
    this.#given.set(alias, given);
    return alias;
  }

  /** `text` with every alias replaced by the path as given (JSON-escaped in JSON text). */
  rewrite(text: string, json: boolean): string {
    let out = text;
    for (const [alias, given] of this.#given) {
      out = json ? out.replaceAll(jsonEscaped(alias), jsonEscaped(given)) : out.replaceAll(alias, given);
    }
    return out;
  }

  close(): void {
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }
}

const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
