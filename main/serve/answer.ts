// Serving a file for a request, written once for every server in main: the local engine's output files,
// the web host and Electron's app:// protocol (the renderer's files and the cached outputs). It decides the
// answer (status, headers, which bytes) from the request's method and headers; an adapter sends it
// (node.ts for node:http, fetch.ts for a fetch Response, the engine's delivery for its replies).
//
// - A strong ETag from the file's identity, size, mtime and inode (files are replaced by a rename, never
//   changed in place); If-None-Match (weak comparison, lists, `*`) answers 304.
// - One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) answers 206, or 416 with `bytes */<size>` when it
//   starts past the end; several ranges, other units and malformed text are ignored (the whole file, as
//   RFC 9110 allows). If-Range with another validator sends the whole file.
// - HEAD gets the headers of GET (the adapters send no body).
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';

/** What an answer needs of a request: its method and three headers (see node.ts and fetch.ts). */
export interface FileRequest {
  method: string;
  header(name: 'range' | 'if-none-match' | 'if-range'): string | undefined;
}

/** The bytes of an answer: a range of a file (`end` inclusive; `end < start` for none), a stream, or text. */
export type AnswerBody = { file: string; start: number; end: number } | { stream: Readable } | { text: string };

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Not sent for HEAD. */
  body?: AnswerBody;
}

export interface ServedFile {
  path: string;
  contentType: string;
  cacheControl: string;
  /** What names the file in its ETag besides size, mtime and inode (default: its path). */
  identity?: string;
}

/** The answer for a file on disk; undefined when there is no such file. */
export async function answerFile(req: FileRequest, file: ServedFile): Promise<Answer | undefined> {
  const info = await stat(file.path).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  const size = info.size;
  const etag = strongEtag(file.identity ?? file.path, info);
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    'accept-ranges': 'bytes',
    etag,
    'cache-control': file.cacheControl,
  };

  if (matchesAny(req.header('if-none-match'), etag)) return { status: 304, headers };

  const ifRange = req.header('if-range');
  const rangeHeader = ifRange === undefined || ifRange === etag ? req.header('range') : undefined;
  const range = rangeHeader === undefined ? undefined : parseRange(rangeHeader, size);
  if (range === 'unsatisfiable') return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } };
  if (range === undefined)
    return {
      status: 200,
      headers: { ...headers, 'content-length': String(size) },
      body: { file: file.path, start: 0, end: size - 1 },
    };
  return {
    status: 206,
    headers: {
      ...headers,
      'content-length': String(range.end - range.start + 1),
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
    },
    body: { file: file.path, ...range },
  };
}

/** A text answer (errors, pages), never cached. */
export function textAnswer(status: number, text: string, contentType = 'text/plain; charset=utf-8'): Answer {
  return {
    status,
    headers: {
      'content-type': contentType,
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
    },
    body: { text },
  };
}

/** `"<32 hex>"`: the same file (identity, size, mtime, inode) always gets the same tag. */
export function strongEtag(identity: string, info: { size: number; mtimeMs: number; ino: number }): string {
  return `"${createHash('sha256').update(`${identity}:${info.size}:${info.mtimeMs}:${info.ino}`).digest('hex').slice(0, 32)}"`;
}

/** If-None-Match uses the weak comparison: `W/` prefixes are ignored, `*` matches anything. */
function matchesAny(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });
}

/**
 * One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`. Anything else (several ranges, other units,
 * malformed text, `b` before `a`) is undefined: the whole file is sent, as RFC 9110 allows.
 */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] = [match[1]!, match[2]!];
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
