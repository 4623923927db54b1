// Downloads one output file into the blob store: streamed to `<cacheDir>/tmp/<id>.part`, resumed with
// Range + If-Range after a failure or a crash, checked (length, and SHA-256 when the expected hash is
// known) and only then renamed into `blobs/`. Output URLs are signed: no API key is sent.
// Plain answers are read by the lean reader of fast-get.ts straight into the PartWriter's two batch
// buffers (flat memory, far less CPU per byte than undici); what it does not handle goes to undici
// (general-get.ts, loaded when first needed). Redirects are followed within the limits of shared/url-reading.ts
// (the engine's input reader's: 5 hops, http(s) only, 1 GiB at the most); no request carries a key or a cookie.
import { createHash } from 'node:crypto';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { backoffDelay, parseRetryAfter } from '../api/backoff.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { isReadableScheme, MAX_REDIRECTS, MAX_URL_READ_BYTES, REDIRECT_STATUSES } from '../../shared/url-reading.ts';
import { adoptBlob, feedHash } from './blobs.ts';
import { FastGetError, fastGet, type FastHeaders, type FastResponse } from './fast-get.ts';
import { BodyTooLarge, Retry, type HttpAnswer } from './http-answer.ts';
import { PartWriter } from './part-writer.ts';

import { classify, DownloadError, urlKey } from './download-failures.ts';

export { Retry } from './http-answer.ts';
export { classify, diskFullDownload, DownloadError, type DownloadFailure, urlKey } from './download-failures.ts';

/** What is known of the file from earlier attempts (the cache entry). */
export interface KnownFile {
  /** Validator of the bytes in the partial file, or of the last verified copy. */
  etag: string | null;
  size: number | null;
  /** Hash of the last verified copy: expected again while the server sends the same ETag. */
  sha256: string | null;
  /** Bytes of the partial file known to be synced to disk. */
  bytesDone: number;
}

export interface DownloadRequest {
  /** Names the output in messages, e.g. `the GLB (glb) of session SESSION_1`. */
  label: string;
  url: string;
  /** A fresh URL when the server refuses this one (expired signature); asked at most once. */
  refreshUrl?: (() => Promise<string | undefined>) | undefined;
  cacheDir: string;
  partPath: string;
  known: KnownFile;
  /** The server answered: from here on the partial file holds bytes of this validator and size. */
  onStarted(file: { etag: string | null; size: number | null; bytesDone: number }): void;
  /** `bytesDone` bytes of the partial file are synced: a crash resumes from there. */
  onCheckpoint(bytesDone: number): void;
  onProgress?: ((bytes: number, total: number | undefined) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface DownloadedBlob {
  sha256: string;
  size: number;
  etag: string | null;
  /** Relative to the cache folder. */
  blobPath: string;
}

export interface DownloaderOptions {
  /** The general client (undici: general-get.ts's downloadDispatcher), for what the fast path does not handle; a function makes it on first use. */
  dispatcher: Dispatcher | (() => Promise<Dispatcher>);
  /** Attempts after network errors and 5xx, including the first (default 5); backoff base and ceiling. */
  retry?: { maxAttempts?: number; baseMs?: number; maxMs?: number };
  /** How many bytes between syncs of the partial file (default 16 MiB). */
  checkpointBytes?: number;
  /**
   * Plain HTTP/1.1 answers (200/206 with a Content-Length) are read by the lean reader of fast-get.ts
   * instead of undici (default true); anything it does not handle goes through `dispatcher`.
   */
  fastPath?: boolean;
}

const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const REFUSED_STATUS = new Set([401, 403, 404, 410]);

export class Downloader {
  readonly #dispatcher: Dispatcher | (() => Promise<Dispatcher>);
  readonly #retry: { maxAttempts: number; baseMs: number; maxMs: number };
  readonly #checkpointBytes: number;
  readonly #fastPath: boolean;
  /** Origins whose answers the fast path could not handle: undici from then on. */
  readonly #slowOrigins = new Set<string>();

  constructor(options: DownloaderOptions) {
    this.#dispatcher = options.dispatcher;
    this.#fastPath = options.fastPath ?? true;
    this.#retry = {
      maxAttempts: options.retry?.maxAttempts ?? 5,
      baseMs: options.retry?.baseMs ?? 500,
      maxMs: options.retry?.maxMs ?? 15_000,
    };
    this.#checkpointBytes = options.checkpointBytes ?? 16 << 20;
  }

  async download(req: DownloadRequest): Promise<DownloadedBlob> {
    const state: AttemptState = {
      url: req.url,
      etag: req.known.etag,
      size: req.known.size,
      trusted: req.known.bytesDone,
      resumed: false,
    };
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(req, state);
      } catch (error) {
        if (req.signal?.aborted)
          throw new DownloadError(
            `The download of ${req.label} was cancelled; it resumes from ${formatBytes(state.trusted)} next time.`,
            { reason: 'cancelled', bytesKept: state.trusted },
          );
        if (error instanceof DownloadError) {
          if (error.reason !== 'refused' || refreshed || req.refreshUrl === undefined) throw error;
          refreshed = true;
          attempt--; // a fresh link is not a retry
          const fresh = await req.refreshUrl().catch((cause: unknown) => {
            throw new DownloadError(
              `${error.message} Reading the job again for a fresh link failed too: ${messageOf(cause)}`,
              { reason: 'refused', bytesKept: state.trusted, cause },
            );
          });
          if (!fresh)
            throw new DownloadError(`${error.message} The job, read again, no longer offers this output.`, {
              reason: 'refused',
              bytesKept: state.trusted,
            });
          state.url = fresh;
          continue;
        }
        const retry = error instanceof Retry ? error : classify(req, state, error);
        if (retry instanceof DownloadError) throw retry;
        if (!refreshed && req.refreshUrl !== undefined && (error as { code?: unknown }).code === 'ECONNREFUSED') {
          // Nobody listens at the link's address any more (the embedded engine of another process of the data
          // folder ended; the job, read again, names the address of the engine serving the folder now).
          refreshed = true;
          const fresh = await req.refreshUrl().catch(() => undefined);
          if (fresh !== undefined && fresh !== state.url) {
            state.url = fresh;
            attempt--; // a fresh link is not a retry
            continue;
          }
        }
        if (retry.restart) await discard(req.partPath, state);
        if (attempt >= this.#retry.maxAttempts) {
          throw new DownloadError(
            `Could not download ${req.label} from ${urlKey(state.url)} after ${attempt} attempts: ${retry.message} ` +
              `${state.trusted > 0 ? `${formatBytes(state.trusted)} are kept and the next try resumes from there. ` : ''}Check the connection and try again.`,
            { reason: 'network', bytesKept: state.trusted, cause: error },
          );
        }
        await delay(Math.max(backoffDelay(attempt, this.#retry), retry.waitMs ?? 0), undefined, {
          signal: req.signal,
        }).catch(() => undefined);
      }
    }
  }

  async #attempt(req: DownloadRequest, state: AttemptState): Promise<DownloadedBlob> {
    const have = await preparePart(req.partPath, state);
    const headers: Record<string, string> = { 'accept-encoding': 'identity' };
    if (have > 0) Object.assign(headers, { range: `bytes=${have}-`, 'if-range': state.etag! });
    const res = await this.#follow(req, state, headers);
    const answer = readAnswer(req, state, res, have);
    if (answer === undefined) {
      await res.discard();
      return this.#attempt(req, state); // 416 or a changed file: `state` now says start from zero
    }
    if (answer.total !== undefined && answer.total > MAX_URL_READ_BYTES) {
      await res.discard();
      throw tooLarge(req, state, answer.total);
    }
    state.trusted = answer.start;
    state.resumed = answer.start > 0;
    state.etag = answer.etag;
    state.size = answer.total ?? null;
    req.onStarted({ etag: state.etag, size: state.size, bytesDone: answer.start });
    const hash = createHash('sha256');
    await feedHash(hash, req.partPath, answer.start);
    const handle = await open(req.partPath, answer.start > 0 ? 'r+' : 'w', 0o600); // private, as the cache folder
    let written: number;
    try {
      const writer = new PartWriter({
        handle,
        start: answer.start,
        expected: answer.total === undefined ? undefined : answer.total - answer.start,
        hash,
        checkpointBytes: this.#checkpointBytes,
        onWritten: (position) => {
          state.trusted = position;
          req.onProgress?.(position, answer.total);
        },
        onSynced: req.onCheckpoint,
      });
      written = await this.#stream(res, writer, answer.start, answer.total);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      await discard(req.partPath, state);
      throw tooLarge(req, state, undefined);
    } finally {
      await handle.close();
    }
    const sha256 = hash.digest('hex');
    const expected =
      answer.digest ??
      (req.known.sha256 !== null && req.known.etag !== null && req.known.etag === answer.etag
        ? req.known.sha256
        : undefined);
    if (expected !== undefined && expected !== sha256) {
      await discard(req.partPath, state);
      const why =
        answer.digest !== undefined
          ? 'the SHA-256 the server announced'
          : `the copy verified earlier under the same ETag ${answer.etag}`;
      // Bytes of two versions may have been joined by a resume: one fresh try from byte 0.
      if (state.resumed) throw new Retry(`the resumed file did not match ${why}`, true);
      throw new DownloadError(
        `The bytes received for ${req.label} do not match ${why} (got SHA-256 ${sha256}, expected ${expected}): the file at the service ` +
          'changed or is damaged, so it was not cached. Read the job again later and retry; report it to the service if it persists.',
        { reason: 'integrity', bytesKept: 0 },
      );
    }
    const blobPath = await adoptBlob(req.cacheDir, req.partPath, sha256);
    return { sha256, size: written, etag: answer.etag, blobPath };
  }

  /** Streams the body to the file at `start`, hashing as it goes; returns the file's final length, synced. */
  async #stream(res: HttpAnswer, writer: PartWriter, start: number, total: number | undefined): Promise<number> {
    try {
      await res.read(writer, start, total);
    } catch (error) {
      await writer.finish(); // the bytes that did arrive are good: kept, synced, for the resume
      if (error instanceof FastGetError && error.code === 'ERR_FAST_GET_TRUNCATED') {
        throw new Retry(`the connection ended after ${writer.position} of ${total} bytes`, false);
      }
      throw error;
    }
    await writer.finish();
    const received = writer.position;
    if (total !== undefined && received !== total) {
      throw new Retry(`the connection ended after ${received} of ${total} bytes`, false);
    }
    return received;
  }

  /**
   * GETs the link, following its redirects (shared/url-reading.ts: as many hops and the same schemes as the
   * engine's input reader) at every attempt: a signed link may send to a fresh CDN address each time. The same
   * headers go to each hop: Range and If-Range, never a key or a cookie.
   */
  async #follow(req: DownloadRequest, state: AttemptState, headers: Record<string, string>): Promise<HttpAnswer> {
    let url = state.url;
    for (let hops = 0; ; hops++) {
      const res = await this.#get(url, headers, req.signal).catch((error: unknown) => {
        if (!(error instanceof FastGetError && error.code === 'ERR_FAST_GET_HEADERS_TOO_LARGE')) throw error;
        throw new DownloadError(
          `The server's answer for ${req.label} (${urlKey(url)}) has a head larger than 64 KiB; it was not cached. Report it to the service.`,
          { reason: 'http', bytesKept: state.trusted, cause: error },
        );
      });
      if (!REDIRECT_STATUSES.has(res.statusCode)) return res;
      await res.discard();
      const next = redirectTarget(header(res.headers, 'location'), url);
      const problem =
        next === undefined
          ? `answered HTTP ${res.statusCode} without saying where to (no valid Location header)`
          : !isReadableScheme(next)
            ? `redirects to a ${next.protocol} URL, which the app does not follow`
            : hops >= MAX_REDIRECTS
              ? `redirects more than ${MAX_REDIRECTS} times`
              : undefined;
      if (problem !== undefined)
        throw new DownloadError(
          `The link to ${req.label} (${urlKey(state.url)}) ${problem}; it was not cached. Retry later, or report it to the service.`,
          { reason: 'http', status: res.statusCode, bytesKept: state.trusted },
        );
      url = next!.href;
    }
  }

  /** Sends the GET through the fast reader when it can handle the answer, else through undici. */
  async #get(url: string, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<HttpAnswer> {
    const origin = new URL(url).origin;
    if (this.#fastPath && !this.#slowOrigins.has(origin)) {
      const fast = await fastGet(url, { headers, signal });
      if (fast !== undefined) return fastResponse(fast);
      this.#slowOrigins.add(origin); // chunked, a redirect, a proxy…: the general client
    }
    // Loaded only when needed (undici adds about 27 MB to a process that only downloads): our module, which
    // imports undici by name, never `import('undici')` (test/scripts/package-imports.test.ts).
    const [{ generalGet }, dispatcher] = await Promise.all([
      import('./general-get.ts'),
      typeof this.#dispatcher === 'function' ? this.#dispatcher() : this.#dispatcher,
    ]);
    return generalGet(url, headers, dispatcher, signal);
  }
}

/** Where a redirect leads: its Location resolved against the URL that answered; undefined when there is none. */
function redirectTarget(location: string | undefined, base: string): URL | undefined {
  if (location === undefined) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** The DownloadError of a file larger than the most a download takes (`size` when it was announced). */
function tooLarge(req: DownloadRequest, state: AttemptState, size: number | undefined): DownloadError {
  return new DownloadError(
    `${req.label} (${urlKey(state.url)}) is ${size === undefined ? 'larger than' : `${formatBytes(size)}, more than`} ` +
      `${formatBytes(MAX_URL_READ_BYTES)}, the most the app downloads of one file; it was not cached. Report it to the service.`,
    { reason: 'http', bytesKept: 0 },
  );
}

function fastResponse(res: FastResponse): HttpAnswer {
  return {
    statusCode: res.status,
    headers: res.headers,
    discard: async () => res.close(),
    read: (writer, start, total) => {
      if (total !== undefined && start + res.contentLength! > total) {
        res.close();
        return Promise.reject(new Retry(`the server sent more than the ${total} bytes it announced`, true));
      }
      writer.onRoom = () => res.resume();
      writer.onError = (error) => res.close(error instanceof Error ? error : new Error(String(error)));
      return res.readBody(writer);
    },
  };
}

export interface AttemptState {
  url: string;
  etag: string | null;
  size: number | null;
  /** Bytes at the start of the partial file that are good to resume from. */
  trusted: number;
  /** The current attempt continued a partial file. */
  resumed: boolean;
  /** A file of the download vanished once already (retried once from byte 0). */
  vanished?: boolean;
}

interface Answer {
  /** Where the body starts in the file. */
  start: number;
  total: number | undefined;
  etag: string | null;
  /** Hex SHA-256 of the whole file, when the server announced it. */
  digest: string | undefined;
}

/**
 * Checks the answer's status and headers. Undefined: start again from byte 0 now (416, or a 206 that
 * does not continue the partial file). Throws a DownloadError (refused, other status) or a Retry.
 */
function readAnswer(req: DownloadRequest, state: AttemptState, res: HttpAnswer, have: number): Answer | undefined {
  const status = res.statusCode;
  const etag = header(res.headers, 'etag') ?? null;
  const digest = announcedSha256(res.headers);
  if (status === 200) {
    const length = header(res.headers, 'content-length');
    return { start: 0, total: length === undefined ? undefined : Number(length), etag, digest };
  }
  if (status === 206 && have > 0) {
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header(res.headers, 'content-range') ?? '');
    const sameFile = etag === state.etag && (state.size === null || Number(range?.[3]) === state.size);
    if (range && sameFile && Number(range[1]) === have && Number(range[2]) === Number(range[3]) - 1) {
      return { start: have, total: Number(range[3]), etag, digest };
    }
    state.trusted = 0; // another validator or length under the same URL: the partial file is of another version
    return undefined;
  }
  if (status === 416 && have > 0) {
    state.trusted = 0; // the partial file is longer than the file now is
    return undefined;
  }
  void res.discard();
  if (REFUSED_STATUS.has(status)) {
    throw new DownloadError(
      `The server refused the link to ${req.label} (HTTP ${status}${status === 403 ? ': the signed link expired or is invalid' : ': no such file'}). ` +
        'Read the job again (e.g. "asset-studio job <id>") to get a fresh link, then retry.',
      { reason: 'refused', status, bytesKept: state.trusted },
    );
  }
  if (RETRY_STATUS.has(status))
    throw new Retry(`the server answered HTTP ${status}`, false, parseRetryAfter(res.headers['retry-after']));
  throw new DownloadError(
    `The server answered HTTP ${status} for ${req.label} (${urlKey(state.url)}); it was not cached. Retry later, or report it to the service.`,
    {
      reason: 'http',
      status,
      bytesKept: state.trusted,
    },
  );
}

/** Makes the partial file hold exactly the bytes to resume from; returns their count (0: start over). */
async function preparePart(partPath: string, state: AttemptState): Promise<number> {
  await mkdir(dirname(partPath), { recursive: true, mode: 0o700 });
  const size = await stat(partPath).then(
    (s) => s.size,
    () => 0,
  );
  // Only a strong validator may be sent in If-Range; without one a resumed file could mix two versions.
  const have = state.etag !== null && !state.etag.startsWith('W/') ? Math.min(size, state.trusted) : 0;
  if (have < size) {
    const handle = await open(partPath, 'r+');
    await handle.truncate(have).finally(() => handle.close());
  }
  state.trusted = have;
  return have;
}

async function discard(partPath: string, state: AttemptState): Promise<void> {
  await rm(partPath, { force: true });
  state.trusted = 0;
}

/** The whole file's SHA-256 from `Repr-Digest: sha-256=:<base64>:` (RFC 9530) or `Digest: SHA-256=<base64>` (RFC 3230). */
function announcedSha256(headers: FastHeaders): string | undefined {
  for (const [name, pattern] of [
    ['repr-digest', /(?:^|,)\s*sha-256=:([A-Za-z0-9+/=]+):/i],
    ['digest', /(?:^|,)\s*sha-256=([A-Za-z0-9+/=]+)/i],
  ] as const) {
    const match = pattern.exec(header(headers, name) ?? '');
    const bytes = match ? Buffer.from(match[1]!, 'base64') : undefined;
    if (bytes?.length === 32) return bytes.toString('hex');
  }
  return undefined;
}

function header(headers: FastHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
