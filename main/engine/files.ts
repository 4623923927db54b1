// Serving output files: signed expiring URLs (no API key, like object storage); strong ETags,
// conditional requests, single byte ranges and HEAD as every server in main answers them (main/serve).
import type { IncomingMessage } from 'node:http';
import { answerFile } from '../serve/answer.ts';
import { contentTypeOf } from '../serve/content-types.ts';
import { nodeFileRequest } from '../serve/node.ts';
import { FILES_PREFIX, type FileStore } from './file-store.ts';
import { errorReply, type Reply } from './http.ts';
import { iso } from './ids.ts';
import type { Signer } from './signing.ts';
import { WorkerCrash } from '../work/pool.ts';

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

const fileError = (status: number, message: string, headers: Record<string, string> = {}) =>
  errorReply(status, message, false, headers);

/** What a file URL names: the file's key, and the signature it carries over `signed` (the key, or its folder). */
export interface FileUrl {
  key: string;
  signed: string;
  expires: number;
  sig: string;
}

const FOLDER_SIGNATURE = /^~(\d+)\.([A-Za-z0-9_-]+)$/;

/**
 * Reads the path (and query) of a file URL (FileStore.url): `/files/<key>?expires=E&sig=S`, or
 * `/files/<folder>/~E.S/<name>` for a file signed by its folder. Undefined when it is not a file path.
 */
export function parseFileUrl(url: URL): FileUrl | undefined {
  if (!url.pathname.startsWith(FILES_PREFIX)) return undefined;
  const segments = url.pathname.slice(FILES_PREFIX.length).split('/');
  const at = segments.findIndex((s) => s.startsWith('~'));
  if (at >= 0) {
    const match = FOLDER_SIGNATURE.exec(segments[at]!);
    const folder = segments.slice(0, at);
    const path = segments.slice(at + 1);
    if (!match || folder.length < 2 || path.length === 0) return undefined;
    const key = [...folder, ...path].join('/');
    return validKey(key)
      ? { key, signed: `${folder.join('/')}/`, expires: Number(match[1]), sig: match[2]! }
      : undefined;
  }
  const key = segments.join('/');
  if (segments.length < 2 || !validKey(key)) return undefined;
  return { key, signed: key, expires: Number(url.searchParams.get('expires')), sig: url.searchParams.get('sig') ?? '' };
}

const validKey = (key: string) => key.split('/').every((s) => SEGMENT.test(s));

/**
 * What a URL names when it is one of this engine's file URLs with a valid signature (whatever its host or port,
 * expired or not: the caller decides what an expired one means); undefined for any other URL.
 */
export function signedFileUrl(url: URL, files: FileStore): FileUrl | undefined {
  const named = parseFileUrl(url);
  if (named === undefined || !Number.isInteger(named.expires)) return undefined;
  return files.verify(named.signed, named.expires, named.sig) ? named : undefined;
}

export async function serveFile(
  req: IncomingMessage,
  url: URL,
  files: FileStore,
  signer: Signer,
  now: number,
): Promise<Reply> {
  const named = parseFileUrl(url);
  if (named === undefined) return fileError(404, 'File not found.');
  const { key, expires, sig } = named;
  if (!Number.isInteger(expires) || sig === '' || !signer.verify(named.signed, expires, sig)) {
    return fileError(403, 'This file URL has no valid signature: use the URL exactly as the session returned it.');
  }
  if (expires <= files.expiredThrough) {
    return fileError(403, 'This file URL has expired: read the session again to get a fresh URL.');
  }
  const secondsLeft = expires - Math.floor(now / 1000);
  if (secondsLeft <= 0) {
    return fileError(
      403,
      `This file URL expired at ${iso(expires * 1000)}: read the session again to get a fresh URL.`,
    );
  }

  try {
    await files.prepare(key);
  } catch (error) {
    // A worker that died making it (out of memory…) fails this download with why; the engine keeps serving.
    if (error instanceof WorkerCrash)
      return fileError(500, `The local engine could not make this file: ${error.message}.`);
    throw error;
  }
  const answer = await answerFile(nodeFileRequest(req), {
    path: files.path(key),
    identity: key,
    contentType: contentTypeOf(key),
    cacheControl: `private, max-age=${secondsLeft}`,
  });
  if (answer === undefined) return fileError(404, 'File not found.');
  if (answer.status === 416) {
    const range = answer.headers['content-range']!;
    return fileError(416, `The requested range is outside the file (${range.slice('bytes */'.length)} bytes).`, {
      'content-range': range,
    });
  }
  const body = answer.body !== undefined && 'file' in answer.body ? answer.body : undefined;
  return {
    status: answer.status,
    headers: answer.headers,
    ...(body && { file: { path: body.file, start: body.start, end: body.end } }),
  };
}
