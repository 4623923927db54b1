// How a download fails: the DownloadError every caller gets (why, and the bytes kept for a resume), which errors
// of one attempt are worth another (network) and which end the download (the cache folder's disk), and the URL
// as messages name it (without its signature).
import { AppError } from '../../shared/errors.ts';
import { asDiskFull } from '../durable/disk-full.ts';
import type { AttemptState, DownloadRequest } from './downloader.ts';
import { Retry } from './http-answer.ts';

export type DownloadFailure = 'refused' | 'http' | 'network' | 'integrity' | 'disk' | 'cancelled';

/** A download that did not give a verified blob. Nothing entered the cache. */
export class DownloadError extends AppError<'download'> {
  readonly reason: DownloadFailure;
  readonly status: number | undefined;
  /** Bytes left in the partial file for a later resume (0: it was discarded). */
  readonly bytesKept: number;

  constructor(
    message: string,
    fields: { reason: DownloadFailure; status?: number; bytesKept: number; cause?: unknown },
  ) {
    super('download', message, { cause: fields.cause });
    this.reason = fields.reason;
    this.status = fields.status;
    this.bytesKept = fields.bytesKept;
  }
}

/** Sockets and HTTP parsing fail with undici's codes or the system's network codes: worth another attempt. */
const NETWORK_CODES = new Set([
  'ERR_FAST_GET_TRUNCATED',
  'ERR_FAST_GET_BAD_RESPONSE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);

/** A file of the download vanished or was replaced under it (another process, a cleaner): worth one fresh try. */
const VANISHED_CODES = new Set(['ENOENT', 'EEXIST', 'ENOTEMPTY', 'ESTALE']);

/** A network error is retried; a file system error ends the download; anything else is a bug and is thrown as it is. */
export function classify(req: DownloadRequest, state: AttemptState, error: unknown): Retry | DownloadError {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') throw error;
  if (code.startsWith('UND_ERR') || NETWORK_CODES.has(code))
    return new Retry(`network error (${code}: ${messageOf(error)})`, false);
  if (VANISHED_CODES.has(code) && !state.vanished) {
    state.vanished = true;
    return new Retry(`a file in the cache folder changed under the download (${code}: ${messageOf(error)})`, true);
  }
  const full = diskFullDownload(error, req.cacheDir, req.label, state.trusted);
  if (full !== undefined) return full;
  const what =
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? "Check the folder's permissions, then retry."
      : 'Check that no other program moves or deletes files in it, then retry.';
  return new DownloadError(
    `Could not write ${req.label} into the cache folder ${req.cacheDir}: ${messageOf(error)}. ${what}`,
    { reason: 'disk', bytesKept: state.trusted, cause: error },
  );
}

/**
 * The DownloadError of a full disk (main/durable/disk-full.ts: ENOSPC, EDQUOT, or EIO with no room left) met
 * while writing `what` into the cache folder: its words name the folder and what to free. Else undefined.
 */
export function diskFullDownload(
  error: unknown,
  cacheDir: string,
  what: string,
  bytesKept: number,
): DownloadError | undefined {
  const full = asDiskFull(error, cacheDir, what);
  return full && new DownloadError(full.message, { reason: 'disk', bytesKept, cause: full });
}

/** The URL without its query string: the signature is a secret and changes at every read. */
export function urlKey(url: string): string {
  const at = url.search(/[?#]/);
  return at < 0 ? url : url.slice(0, at);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
