// Serving output files: signed expiring URLs (no API key, like object storage), strong ETags,
// conditional requests and single byte ranges, streamed from disk.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { extname } from 'node:path';
import { FILES_PREFIX, type FileStore } from './file-store.ts';
import { errorReply, type Reply } from './http.ts';
import { iso } from './ids.ts';
import type { Signer } from './signing.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.glb': 'model/gltf-binary',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.obj': 'model/obj',
  '.mtl': 'model/mtl',
  '.zip': 'application/zip',
  '.fbx': 'application/octet-stream',
  '.usdz': 'model/vnd.usdz+zip',
};
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
    return validKey(key) ? { key, signed: `${folder.join('/')}/`, expires: Number(match[1]), sig: match[2]! } : undefined;
  }
  const key = segments.join('/');
  if (segments.length < 2 || !validKey(key)) return undefined;
  return { key, signed: key, expires: Number(url.searchParams.get('expires')), sig: url.searchParams.get('sig') ?? '' };
}

const validKey = (key: string) => key.split('/').every((s) => SEGMENT.test(s));

export async function serveFile(req: IncomingMessage, url: URL, files: FileStore, signer: Signer, now: number): Promise<Reply> {
  const named = parseFileUrl(url);
  if (named === undefined) return fileError(404, 'File not found.');
  const { key, expires, sig } = named;
  if (!Number.isInteger(expires) || sig === '' || !signer.verify(named.signed, expires, sig)) {
    return fileError(403, 'This file URL has no valid signature: use the URL exactly as the session returned it.');
  }
  const secondsLeft = expires - Math.floor(now / 1000);
  if (secondsLeft <= 0) {
    return fileError(403, `This file URL expired at ${iso(expires * 1000)}: read the session again to get a fresh URL.`);
  }

  await files.prepare(key);
  const path = files.path(key);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return fileError(404, 'File not found.');
  // Files never change once written (atomic rename), so identity + size + mtime make a strong validator.
  const etag = `"${createHash('sha256').update(`${key}:${info.size}:${info.mtimeMs}:${info.ino}`).digest('hex').slice(0, 32)}"`;
  const headers: Record<string, string | number> = {
    'content-type': CONTENT_TYPES[extname(key)] ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
    etag,
    'cache-control': `private, max-age=${secondsLeft}`,
  };

  if (matchesAny(req.headers['if-none-match'], etag)) return { status: 304, headers };

  const ifRange = req.headers['if-range'];
  const rangeHeader = ifRange === undefined || ifRange === etag ? req.headers.range : undefined;
  const range = rangeHeader === undefined ? undefined : parseRange(rangeHeader, info.size);
  if (range === 'unsatisfiable') {
    return fileError(416, `The requested range is outside the file (${info.size} bytes).`, { 'content-range': `bytes */${info.size}` });
  }
  if (range === undefined) {
    return { status: 200, headers: { ...headers, 'content-length': info.size }, file: { path, start: 0, end: info.size - 1 } };
  }
  return {
    status: 206,
    headers: { ...headers, 'content-length': range.end - range.start + 1, 'content-range': `bytes ${range.start}-${range.end}/${info.size}` },
    file: { path, ...range },
  };
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
 * malformed text) is ignored and the whole file is sent, as RFC 9110 allows.
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
