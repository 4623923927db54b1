// The files inside a cached zip output (`zip`, `preview_zip`: the OBJ with its MTL and texture), served one
// by one so that a viewer can open the OBJ at `/cache/<session>/<kind>/<entry path>` and fetch the MTL and
// textures beside it. Both transports (the web host and the Electron app:// handler) go through
// `openCachedZipEntry`. Nothing is extracted to disk: an entry is inflated as it is sent.
// The central directory of a blob is read once and kept (with the zip open) for a short while: a viewer
// asks for the OBJ, then the MTL, then the textures, within a second. Blobs are content-addressed, so a
// path always means the same bytes.
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { contentTypeOf } from '../serve/content-types.ts';
import type { DownloadCache } from './download-cache.ts';

export interface ZipEntryInfo {
  /** The entry's path inside the zip (`model.obj`, `textures/albedo.png`). */
  name: string;
  /** Uncompressed size in bytes. */
  size: number;
}

/** Why an entry cannot be served: `status` is the HTTP status to answer (404: no such file; 400: not a zip). */
export class ZipEntryError extends Error {
  readonly status: 404 | 400 | 500;
  constructor(status: 404 | 400 | 500, message: string) {
    super(message);
    this.name = 'ZipEntryError';
    this.status = status;
  }
}

/** Why a path (of an entry, or asked for) could point outside the archive's folder, if it could. */
export function unsafeEntryName(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.includes('\0')) return 'has a NUL character';
  if (name.includes('\\')) return 'has a backslash (a Windows path that could point elsewhere)';
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return 'is an absolute path';
  const parts = name.split('/');
  if (parts.includes('..')) return 'goes up a folder with ".." (path traversal)';
  if (parts.some((p) => p === '' || p === '.')) return 'has an empty or "." segment';
  return undefined;
}

interface OpenZip {
  zip: ZipFile;
  /** File entries by name (folders and unsafe names left out), in archive order. */
  entries: Map<string, Entry>;
}

/** How long an opened zip (its file handle and central directory) is kept after its last use. */
const KEEP_MS = 30_000;
/** Zips kept open at most; the least recently used is closed first. */
const MAX_OPEN = 8;
const opened = new Map<string, { zip: Promise<OpenZip>; timer: NodeJS.Timeout }>();

async function openZip(path: string): Promise<OpenZip> {
  const zip = await yauzl
    .openPromise(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true })
    .catch((error: unknown) => {
      throw new ZipEntryError(400, `The cached file is not a readable zip archive (${(error as Error).message}).`);
    });
  const entries = new Map<string, Entry>();
  try {
    for await (const entry of zip.eachEntry()) {
      // Names decoded here (UTF-8 or CP437, backslashes as slashes) and checked below, rather than by yauzl,
      // which would refuse the whole archive for one odd entry.
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      if (name.endsWith('/') || unsafeEntryName(name) !== undefined) continue;
      if (!entries.has(name)) entries.set(name, entry);
    }
  } catch (error) {
    zip.close();
    throw new ZipEntryError(400, `The cached zip archive is damaged (${(error as Error).message}).`);
  }
  return { zip, entries };
}

/** The opened zip of a blob: from the short-lived cache, or opened now. */
function useZip(path: string): Promise<OpenZip> {
  const known = opened.get(path);
  if (known) {
    clearTimeout(known.timer);
    opened.delete(path); // re-inserted below: most recently used last
  }
  const zip = known?.zip ?? openZip(path);
  const timer = setTimeout(() => close(path), KEEP_MS).unref();
  opened.set(path, { zip, timer });
  zip.catch(() => close(path));
  while (opened.size > MAX_OPEN) close(opened.keys().next().value!);
  return zip;
}

function close(path: string): void {
  const known = opened.get(path);
  if (!known) return;
  opened.delete(path);
  clearTimeout(known.timer);
  // Streams still reading keep the file open until they end (yauzl counts them).
  known.zip.then(
    (z) => z.zip.close(),
    () => undefined,
  );
}

/** Closes every zip kept open (tests, shutdown). */
export function closeZipEntries(): void {
  for (const path of [...opened.keys()]) close(path);
}

/** The files in a zip (not its folders, nor entries whose path could leave the archive). */
export async function listZipEntries(path: string): Promise<ZipEntryInfo[]> {
  const { entries } = await useZip(path);
  return [...entries].map(([name, e]) => ({ name, size: e.uncompressedSize }));
}

export interface OpenedEntry {
  name: string;
  size: number;
  /** By its extension, from the one table (main/serve/content-types.ts). */
  contentType: string;
  stream: Readable;
}

/** One file of a zip, inflated as it is read. Throws a ZipEntryError (404) for an unsafe or missing name. */
export async function readZipEntry(path: string, name: string): Promise<OpenedEntry> {
  const unsafe = unsafeEntryName(name);
  if (unsafe !== undefined) throw new ZipEntryError(404, `"${name}" is not a file of the zip: the path ${unsafe}.`);
  const { zip, entries } = await useZip(path);
  const entry = entries.get(name);
  if (entry === undefined) {
    const names = [...entries.keys()];
    throw new ZipEntryError(
      404,
      `The zip has no file "${name}" (it holds ${names.length === 0 ? 'no files' : names.slice(0, 20).join(', ')}).`,
    );
  }
  if (!entry.canDecodeFileData() || entry.isEncrypted())
    throw new ZipEntryError(
      404,
      `"${name}" is stored in a way that cannot be read (encrypted, or compression method ${entry.compressionMethod}).`,
    );
  const stream = await zip.openReadStreamPromise(entry).catch((error: unknown) => {
    throw new ZipEntryError(500, `"${name}" cannot be read from the cached zip (${(error as Error).message}).`);
  });
  return { name, size: entry.uncompressedSize, contentType: contentTypeOf(name), stream };
}

/**
 * The entry path of a request under `/cache/<session>/<kind>/`: the segments after the kind, each
 * URI-decoded, joined with `/`. Undefined when the path has no entry part (the output itself is asked for).
 */
export function entryPathOf(segments: readonly string[]): string | undefined {
  if (segments.length === 0) return undefined;
  try {
    return segments.map((s) => decodeURIComponent(s)).join('/');
  } catch {
    return '\0'; // malformed escapes: refused as unsafe
  }
}

/**
 * A file inside a complete cached zip output: what the web host and the Electron protocol handler serve at
 * `/cache/<sessionId>/<kind>/<entry path>`. Throws a ZipEntryError saying what is missing.
 */
export async function openCachedZipEntry(
  cache: Pick<DownloadCache, 'open'>,
  sessionId: string,
  kind: string,
  name: string,
): Promise<OpenedEntry> {
  const blob = cache.open(sessionId, kind);
  if (blob === undefined)
    throw new ZipEntryError(
      404,
      `The ${kind} output of ${sessionId} is not in the cache: download the job's outputs first.`,
    );
  return readZipEntry(blob, name);
}

/** The files of a complete cached zip output (`cache.entries`). */
export async function cachedZipEntries(
  cache: Pick<DownloadCache, 'open'>,
  sessionId: string,
  kind: string,
): Promise<ZipEntryInfo[]> {
  const blob = cache.open(sessionId, kind);
  if (blob === undefined)
    throw new ZipEntryError(
      404,
      `The ${kind} output of ${sessionId} is not in the cache: download the job's outputs first.`,
    );
  return listZipEntries(blob);
}
