// `/cache/<session>/<kind>` (a cached output) and `/cache/<session>/<kind>/<entry path>` (a file inside a
// cached zip), written once for both transports: the web host sends the answer with main/serve/node.ts,
// Electron's app:// protocol with main/serve/fetch.ts, so both give the same statuses and headers.
import { open } from 'node:fs/promises';
import { objFileNameOf, parseCachePath, WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { formatOutputKind, isObjOutput, parseOutputKind } from '../../shared/output-kind.ts';
import type { DownloadCache } from '../cache/download-cache.ts';
import { entryPathOf, openCachedZipEntry, ZipEntryError } from '../cache/zip-entries.ts';
import { sniff } from '../files/sniff.ts';
import { answerFile, textAnswer, type Answer, type FileRequest } from '../serve/answer.ts';
import { BYTES, contentTypeOfExtension } from '../serve/content-types.ts';

/** Blobs never change (content-addressed), but an output may be downloaded again: an hour, this user only. */
export const CACHED_OUTPUT_CACHING = 'private, max-age=3600';

/** The answer for a path under `/cache/` (the whole URL path, prefix included). */
export async function answerCached(
  cache: Pick<DownloadCache, 'open'>,
  pathname: string,
  req: FileRequest,
): Promise<Answer> {
  const parsed = parseCachePath(pathname.slice(WEB_PROTOCOL.cachePrefix.length));
  if (parsed === undefined)
    return textAnswer(404, `Not a cached output: ${pathname} (expected /cache/<session>/<kind>).`);
  const { sessionId } = parsed;
  let kind = parsed.kind;
  const entry = entryPathOf(parsed.entry);
  if (entry !== undefined && isObjOutput(parseOutputKind(kind))) {
    // An OBJ is served as a file in a folder of its own, beside the MTL and textures it names.
    if (entry !== objFileNameOf(kind)) kind = formatOutputKind({ type: 'obj-file', of: kind, name: entry });
  } else if (entry !== undefined) {
    return answerZipEntry(cache, sessionId, kind, entry);
  }
  const path = cache.open(sessionId, kind);
  if (path === undefined)
    return textAnswer(404, `The ${kind} output of ${sessionId} is not in the cache: download the job's outputs first.`);
  const answer = await answerFile(req, {
    path,
    contentType: await cachedContentType(path),
    cacheControl: CACHED_OUTPUT_CACHING,
  });
  return (
    answer ?? textAnswer(404, 'This file is no longer there (removed from the cache or the folder): reload the page.')
  );
}

/** A file inside a cached zip (the OBJ of `mesh_url_zip` with its MTL and texture beside it), inflated as it is sent. */
async function answerZipEntry(
  cache: Pick<DownloadCache, 'open'>,
  sessionId: string,
  kind: string,
  name: string,
): Promise<Answer> {
  try {
    const opened = await openCachedZipEntry(cache, sessionId, kind, name);
    return {
      status: 200,
      headers: {
        'content-type': opened.contentType,
        'content-length': String(opened.size),
        'cache-control': CACHED_OUTPUT_CACHING,
      },
      body: { stream: opened.stream },
    };
  } catch (error) {
    if (error instanceof ZipEntryError) return textAnswer(error.status, error.message);
    throw error;
  }
}

/**
 * A blob has no extension, and its kind is the output's name, not a file name: its type comes from its first
 * bytes, read as the one table names them (a USDZ is the zip whose first file is USD; an MP4 has `ftyp`).
 */
export async function cachedContentType(path: string): Promise<string> {
  const head = Buffer.alloc(512);
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return BYTES;
  try {
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const format = formatOf(head.subarray(0, bytesRead));
    return format === undefined ? BYTES : contentTypeOfExtension(format);
  } finally {
    await handle.close();
  }
}

const SNIFFED: Readonly<Partial<Record<ReturnType<typeof sniff>, string>>> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  gif: 'gif',
  glb: 'glb',
  obj: 'obj',
  mp4: 'mp4',
};

function formatOf(head: Buffer): string | undefined {
  const kind = sniff(head);
  if (kind !== 'zip') return SNIFFED[kind];
  // The first local file header: its name (length at byte 26) starts at byte 30.
  const name = head.length >= 30 ? head.toString('utf8', 30, Math.min(head.length, 30 + head.readUInt16LE(26))) : '';
  return /\.usd[ac]?$/i.test(name) ? 'usdz' : 'zip';
}
