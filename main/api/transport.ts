// Generic HTTP transport of the service API client: one dispatcher (dispatcher.ts: undici, through the
// environment's proxy and certificates), the API key header, JSON, multipart and streamed bodies, typed errors,
// and retries of idempotent requests. Redirects are not followed: the key never goes to another origin. The key never leaves in an
// error or a log line: everything that comes from the server or from undici is redacted first.
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { request, type Dispatcher, type FormData } from 'undici';
import { backoffDelay, parseRetryAfter } from './backoff.ts';
import { createDispatcher } from './dispatcher.ts';
import {
  ApiError,
  CancelledError,
  formatDuration,
  NetworkError,
  ProtocolError,
  RequestValidationError,
  ServiceResponseError,
  TimeoutError,
  type TimeoutPhase,
} from './errors.ts';
import { createRedactingLogger, redactSecrets, type Logger } from './redact.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface TransportOptions {
  apiKey: string;
  userAgent?: string;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** Time to wait for the response headers. Default 30 s. */
  headersTimeoutMs?: number;
  /** Longest silence while the body is received. Default 60 s. */
  bodyTimeoutMs?: number;
  /** Attempts in total, including the first (default 4); backoff base (300 ms) and ceiling (8 s). */
  retry?: { maxAttempts?: number; baseMs?: number; maxMs?: number };
  logger?: Logger;
  /** Replaces the transport's own dispatcher (dispatcher.ts; this one's time limits are its own); not closed by close(). */
  dispatcher?: Dispatcher;
  /** Waits between attempts; must reject or return early when the signal aborts. For tests. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

export interface TransportRequest {
  method: HttpMethod;
  url: string;
  /** Endpoint label for errors and logs, e.g. `/image-to-3d-sessions/:session_code`. */
  route: string;
  json?: unknown;
  /** Sent as multipart/form-data; file entries are streamed. */
  multipart?: FormData;
  /** A body read from its source while it is sent, with its exact length (e.g. a file upload). */
  stream?: StreamBody;
  /** Added to the URL; undefined values are left out. */
  query?: Record<string, string | undefined>;
  /** May the request be sent again automatically? Default: true for GET only. */
  idempotent?: boolean;
  signal?: AbortSignal;
  /** Success statuses; default any 2xx. */
  expectedStatus?: number[];
  /** Overrides the transport's attempts for this request (1 = no automatic retry). */
  maxAttempts?: number;
}

export interface StreamBody {
  /**
   * Starts reading the body from its source; called once per attempt. The source may reuse a chunk's
   * memory once the chunk after next is asked for: undici writes each chunk to the socket (and waits
   * for it to drain when full) before asking for the next one.
   */
  open(): AsyncIterable<Uint8Array>;
  contentType: string;
  /** Exact length in bytes, sent as content-length. */
  length: number;
}

/** One attempt's reading of a stream body: did it get to the end, or did its source fail? */
class StreamAttempt {
  complete = false;
  failure: unknown;
  /** An async iterable: undici takes one (its types list only Readable) and writes each chunk before asking for the next. */
  readonly body: Readable;

  constructor(source: StreamBody) {
    this.body = this.#read(source) as AsyncIterable<Uint8Array> as Readable;
  }

  async *#read(source: StreamBody): AsyncGenerator<Uint8Array> {
    try {
      yield* source.open();
      this.complete = true;
    } catch (error) {
      this.failure = error;
      throw error;
    }
  }
}

export type ResponseHeaders = Dispatcher.ResponseData['headers'];

export interface TransportResponse {
  status: number;
  headers: ResponseHeaders;
  /** Parsed JSON; undefined for an empty 204. */
  body: unknown;
}

/** Context of one logical request, shared by its attempts. */
interface Call {
  endpoint: string;
  idempotent: boolean;
  signal: AbortSignal | undefined;
}

const SNIPPET_CHARS = 200;
/** How long close() lets requests in flight end before it destroys their connections. */
const CLOSE_GRACE_MS = 2_000;

const TIMEOUT_PHASES = new Map<string, TimeoutPhase>([
  ['UND_ERR_CONNECT_TIMEOUT', 'connect'],
  ['UND_ERR_HEADERS_TIMEOUT', 'headers'],
  ['UND_ERR_BODY_TIMEOUT', 'body'],
]);

export class HttpTransport {
  readonly #apiKey: string;
  readonly #userAgent: string;
  readonly #connectTimeoutMs: number;
  readonly #headersTimeoutMs: number;
  readonly #bodyTimeoutMs: number;
  readonly #retry: { maxAttempts: number; baseMs: number; maxMs: number };
  readonly #log: Logger | undefined;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;

  constructor(opts: TransportOptions) {
    this.#apiKey = opts.apiKey;
    this.#userAgent = opts.userAgent ?? 'asset-studio';
    this.#connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
    this.#headersTimeoutMs = opts.headersTimeoutMs ?? 30_000;
    this.#bodyTimeoutMs = opts.bodyTimeoutMs ?? 60_000;
    this.#retry = {
      maxAttempts: opts.retry?.maxAttempts ?? 4,
      baseMs: opts.retry?.baseMs ?? 300,
      maxMs: opts.retry?.maxMs ?? 8000,
    };
    this.#log = opts.logger && createRedactingLogger(opts.logger, () => [this.#apiKey]);
    this.#ownsDispatcher = opts.dispatcher === undefined;
    this.#dispatcher =
      opts.dispatcher ??
      createDispatcher({
        connectTimeoutMs: this.#connectTimeoutMs,
        headersTimeoutMs: this.#headersTimeoutMs,
        bodyTimeoutMs: this.#bodyTimeoutMs,
      });
    this.#sleep = opts.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  }

  /**
   * Closes the transport's dispatcher: requests in flight get CLOSE_GRACE_MS to end, then their connections are
   * destroyed (a service that never answers must not hold the app, the web host or a CLI command open on exit).
   */
  async close(): Promise<void> {
    if (!this.#ownsDispatcher) return;
    const closed = this.#dispatcher.close().then(
      () => true,
      () => true,
    );
    const graceEnded = delay(CLOSE_GRACE_MS, false, { ref: false });
    if (!(await Promise.race([closed, graceEnded]))) await this.#dispatcher.destroy().catch(() => undefined);
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    const call: Call = {
      endpoint: `${req.method} ${req.route}`, // a label of the caller's code, never data from outside
      idempotent: req.idempotent ?? req.method === 'GET',
      signal: req.signal,
    };
    const url = this.#buildUrl(req, call);
    const body = this.#encodeBody(req, call);
    const maxAttempts = req.maxAttempts ?? this.#retry.maxAttempts;
    for (let attempt = 1; ; attempt++) {
      if (call.signal?.aborted) throw new CancelledError({ ...call, unsent: attempt === 1 }); // aborted before the first attempt: nothing was sent
      try {
        return await this.#attempt(req, url, body, call);
      } catch (err) {
        if (!(err instanceof ApiError) || !call.idempotent || !err.retryable || attempt >= maxAttempts) throw err;
        const retryAfterMs = err instanceof ServiceResponseError ? (err.retryAfterMs ?? 0) : 0;
        const waitMs = Math.max(backoffDelay(attempt, this.#retry), retryAfterMs);
        this.#log?.warn(
          `Retrying in ${formatDuration(waitMs)} (attempt ${attempt + 1} of ${maxAttempts}) after: ${err.message}`,
          { endpoint: call.endpoint, attempt, waitMs, kind: err.kind, status: err.status },
        );
        try {
          await this.#sleep(waitMs, call.signal);
        } catch (sleepErr) {
          if (!call.signal?.aborted) throw sleepErr;
        }
      }
    }
  }

  async #attempt(
    req: TransportRequest,
    url: URL,
    body: string | FormData | undefined,
    call: Call,
  ): Promise<TransportResponse> {
    const headers: Record<string, string> = {
      'x-api-key': this.#apiKey,
      accept: 'application/json',
      'user-agent': this.#userAgent,
    };
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const stream = req.stream && new StreamAttempt(req.stream);
    if (req.stream) {
      headers['content-type'] = req.stream.contentType;
      headers['content-length'] = String(req.stream.length);
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: req.method,
        headers,
        body: stream?.body ?? body ?? null,
        signal: call.signal ?? null,
        dispatcher: this.#dispatcher,
        headersTimeout: this.#headersTimeoutMs,
        bodyTimeout: this.#bodyTimeoutMs,
      });
    } catch (err) {
      throw this.#translate(err, 'send', call, stream);
    }
    let text: string | undefined;
    try {
      text = await readText(res, MAX_RESPONSE_BYTES);
    } catch (err) {
      throw this.#translate(err, 'body', call);
    }
    if (text === undefined)
      throw new ProtocolError({
        ...call,
        problem: 'unexpected-shape',
        status: res.statusCode,
        detail: `an answer of more than ${MAX_RESPONSE_BYTES / 2 ** 20} MiB, which the app does not read`,
      });
    return this.#interpret(res.statusCode, res.headers, text, req.expectedStatus, call);
  }

  #interpret(
    status: number,
    headers: ResponseHeaders,
    text: string,
    expected: number[] | undefined,
    call: Call,
  ): TransportResponse {
    const empty = !/\S/.test(text); // stops at the first non-space; trim() would copy the body
    let parsed: { value: unknown } | undefined;
    try {
      if (!empty) parsed = { value: JSON.parse(text) };
    } catch {
      parsed = undefined;
    }
    const ok = expected ? expected.includes(status) : status >= 200 && status < 300;
    if (!ok) {
      const envelope = isRecord(parsed?.value) ? parsed.value : {};
      throw new ServiceResponseError({
        ...call,
        status,
        ...(typeof envelope.error === 'string' && { serviceError: this.#redact(envelope.error) }),
        ...(typeof envelope.message === 'string' && { serviceMessage: this.#redact(envelope.message) }),
        ...(!empty && !parsed && { nonJsonBody: this.#snippet(text) }),
        ...(expected && { expectedStatus: expected }),
        retryAfterMs: parseRetryAfter(headers['retry-after']),
      });
    }
    if (empty) {
      if (status === 204) return { status, headers, body: undefined };
      throw new ProtocolError({ ...call, problem: 'empty', status });
    }
    if (!parsed) throw new ProtocolError({ ...call, problem: 'not-json', status, detail: this.#snippet(text) });
    return { status, headers, body: parsed.value };
  }

  /**
   * Turns whatever undici threw into an ApiError; `phase` tells whether the response had started.
   * A stream body that was cut off (cancelled, or its source failed) cannot have been acted on.
   */
  #translate(err: unknown, phase: 'send' | 'body', call: Call, stream?: StreamAttempt): ApiError {
    if (call.signal?.aborted) return new CancelledError({ ...call, unsent: stream !== undefined && !stream.complete });
    if (stream?.failure !== undefined) {
      const why = this.#redact(stream.failure instanceof Error ? stream.failure.message : String(stream.failure));
      return new RequestValidationError({
        ...call,
        issues: [{ path: '(body)', message: `could not be read while it was sent (${why})` }],
      });
    }
    const code = errorCode(err);
    const timeoutPhase = TIMEOUT_PHASES.get(code);
    if (timeoutPhase) {
      const timeoutMs = { connect: this.#connectTimeoutMs, headers: this.#headersTimeoutMs, body: this.#bodyTimeoutMs }[
        timeoutPhase
      ];
      return new TimeoutError({ ...call, phase: timeoutPhase, timeoutMs });
    }
    const detail = this.#redact(err instanceof Error ? err.message : String(err));
    if (code === 'UND_ERR_INVALID_ARG')
      return new RequestValidationError({ ...call, issues: [{ path: '(request)', message: detail }] });
    if (phase === 'body') return new ProtocolError({ ...call, problem: 'truncated', detail: code });
    return new NetworkError({ ...call, code, detail });
  }

  #buildUrl(req: TransportRequest, call: Call): URL {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new RequestValidationError({ ...call, issues: [{ path: 'url', message: 'is not a valid URL' }] });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RequestValidationError({
        ...call,
        issues: [{ path: 'url', message: 'must start with http:// or https://' }],
      });
    }
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, value);
    }
    return url;
  }

  #encodeBody(req: TransportRequest, call: Call): string | FormData | undefined {
    if ([req.json !== undefined, req.multipart !== undefined, req.stream !== undefined].filter(Boolean).length > 1) {
      throw new RequestValidationError({
        ...call,
        issues: [{ path: '(body)', message: 'give only one of a JSON body, a multipart form or a stream body' }],
      });
    }
    if (req.json === undefined) return req.multipart;
    try {
      return JSON.stringify(req.json);
    } catch (err) {
      const why = this.#redact(err instanceof Error ? err.message : String(err));
      throw new RequestValidationError({
        ...call,
        issues: [{ path: '(body)', message: `cannot be sent as JSON (${why})` }],
      });
    }
  }

  #redact(text: string): string {
    return redactSecrets(text, [this.#apiKey]);
  }

  /** The start of a body for a message: redacted, whitespace collapsed, at most SNIPPET_CHARS. */
  #snippet(text: string): string {
    const flat = this.#redact(text).replace(/\s+/g, ' ').trim();
    return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string code of a Node/undici error, looking into `cause` and AggregateError members. */
function errorCode(err: unknown): string {
  if (!isRecord(err)) return 'UNKNOWN';
  if (typeof err.code === 'string') return err.code;
  const inner = err.cause ?? (Array.isArray(err.errors) ? err.errors[0] : undefined);
  return inner === undefined ? 'UNKNOWN' : errorCode(inner);
}

/** Largest answer body read (JSON of the API; a page of the list is a few hundred KiB). */
const MAX_RESPONSE_BYTES = 32 * 2 ** 20;

/** The body as UTF-8 text, or undefined when it is, or says it is, larger than `max` (readCapped). */
async function readText(res: Dispatcher.ResponseData, max: number): Promise<string | undefined> {
  const bytes = await readCapped(res, max);
  return bytes?.toString('utf8').replace(/^\uFEFF/, ''); // as undici's text(): no byte order mark
}

/**
 * The whole body, or undefined (and the body destroyed) when it is, or says it is, larger than `max`: never
 * more than `max` bytes in memory, whatever the server sends. A body that breaks off rejects.
 */
export async function readCapped(res: Dispatcher.ResponseData, max: number): Promise<Buffer | undefined> {
  const tooLarge = () => {
    res.body.on('error', () => undefined); // its "aborted" is expected: the rest is not wanted
    res.body.destroy();
    return undefined;
  };
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (declared > max) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
