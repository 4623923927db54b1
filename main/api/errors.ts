// Typed errors of the service API client. Every message names the endpoint, says what happened
// and what to do. Text that came from the network must be redacted before it reaches a constructor.
// Each is an AppError whose code is its kind; its exit code and bridge code come from shared/errors.ts
// (cancelled is exit 1: a plain failure code, since the process itself was not interrupted by a signal).
import type { FieldIssue } from '../../shared/contract/issues.ts';
import { issuesToText } from '../../shared/contract/issues.ts';
import { AppError } from '../../shared/errors.ts';
import { PUBLIC_SERVICE_KEYS_PAGE } from '../../shared/public-service.ts';

export type { ExitCode } from '../../shared/errors.ts';

export type ApiErrorKind = 'request-validation' | 'service-response' | 'protocol' | 'timeout' | 'network' | 'cancelled';

interface BaseFields {
  /** Route label such as `GET /image-to-3d-sessions/:session_code`, never a full URL. */
  endpoint: string;
  retryable: boolean;
  status?: number;
  serviceError?: string;
  serviceMessage?: string;
}

export abstract class ApiError extends AppError<ApiErrorKind> {
  readonly endpoint: string;
  /** Is it safe to send this request again? (Automatic retries also require an idempotent request.) */
  readonly retryable: boolean;
  readonly status?: number;
  readonly serviceError?: string;
  readonly serviceMessage?: string;

  constructor(kind: ApiErrorKind, message: string, fields: BaseFields & { issues?: FieldIssue[] }) {
    super(kind, message, fields.issues === undefined ? {} : { issues: fields.issues });
    this.endpoint = fields.endpoint;
    this.retryable = fields.retryable;
    if (fields.status !== undefined) this.status = fields.status;
    if (fields.serviceError !== undefined) this.serviceError = fields.serviceError;
    if (fields.serviceMessage !== undefined) this.serviceMessage = fields.serviceMessage;
  }

  /** The kind of failure: the error's code. */
  get kind(): ApiErrorKind {
    return this.code;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      exitCode: this.exitCode,
      ...Object.fromEntries(Object.entries(this)),
    };
  }
}

/** The request was not sent: its arguments are invalid. */
export class RequestValidationError extends ApiError {
  declare readonly issues: FieldIssue[];

  constructor(f: { endpoint: string; issues: FieldIssue[] }) {
    super(
      'request-validation',
      `${f.endpoint}: the request was not sent because it is invalid: ${issuesToText(f.issues)}. Fix these values and try again.`,
      {
        endpoint: f.endpoint,
        retryable: false,
        issues: f.issues,
      },
    );
  }
}

const RETRYABLE_5XX = new Set([500, 502, 503, 504]);

/** The service answered with an HTTP error status (or a status the endpoint never returns on success). */
export class ServiceResponseError extends ApiError {
  declare readonly status: number;
  /** From the `Retry-After` header, when present. */
  readonly retryAfterMs?: number;

  /**
   * 429 is always safe to retry (the service refused to do the work); 500/502/503/504 only when the
   * request is idempotent, since the service may have done the work before failing.
   */
  constructor(f: {
    endpoint: string;
    status: number;
    idempotent: boolean;
    serviceError?: string;
    serviceMessage?: string;
    retryAfterMs?: number;
    /** Start of the body when it was not JSON (e.g. a proxy's HTML page). */
    nonJsonBody?: string;
    /** Success statuses the endpoint returns, when `status` is not an error but not one of them. */
    expectedStatus?: number[];
  }) {
    const envelope = [f.serviceError, f.serviceMessage].filter(Boolean).join(': ');
    const rateLimited = isRateLimit(f.status, envelope);
    const bare = !rateLimited && isBareRefusal(f.status, f.serviceMessage);
    let what = `answered HTTP ${f.status}`;
    if (f.status < 400 && f.expectedStatus) what += ` instead of ${f.expectedStatus.join(' or ')}`;
    if (envelope) what += ` (${envelope})`;
    else if (f.nonJsonBody !== undefined)
      what += ` with a body that is not JSON, probably from a proxy or gateway: "${f.nonJsonBody}"`;
    super(
      'service-response',
      `${f.endpoint}: the service ${what}. ${bare ? BARE_REFUSAL_ADVICE : statusAdvice(rateLimited ? 429 : f.status, f.retryAfterMs)}`,
      {
        endpoint: f.endpoint,
        retryable: rateLimited || (f.idempotent && (RETRYABLE_5XX.has(f.status) || bare)),
        status: f.status,
        ...(f.serviceError !== undefined && { serviceError: f.serviceError }),
        ...(f.serviceMessage !== undefined && { serviceMessage: f.serviceMessage }),
      },
    );
    this.rateLimited = rateLimited;
    this.bareRefusal = bare;
    if (f.retryAfterMs !== undefined) this.retryAfterMs = f.retryAfterMs;
  }

  /** A refusal for too many requests: HTTP 429, or a 400 whose message speaks of a rate limit (the real service sends those). */
  readonly rateLimited: boolean;
  /** A 400 whose message only says to try again (see isBareRefusal). */
  readonly bareRefusal: boolean;
}

/**
 * Is this a 400 that gives no reason but "try again" ("Something went wrong, please try again")? The vendor's own
 * evaluation scripts retry those ("CSM API sometimes returns 400 for rate limits without clear keywords"): a read
 * is retried with backoff; a create is never sent twice by the client, its journal decides (it may have been made).
 */
export function isBareRefusal(status: number, message: string | undefined): boolean {
  if (status !== 400 || message === undefined) return false;
  return /^\s*(?:(?:something went wrong|an? (?:unexpected |unknown )?error(?: has)? occurred|oops)[\s,.!;:-]*)?(?:please\s+)?try again(?: later)?[\s.!]*$/i.test(
    message,
  );
}

const BARE_REFUSAL_ADVICE =
  'The service refused without a reason; it does this when busy. Wait a minute and try again (a create that may have been made is checked first: run "asset-studio reconcile").';

/**
 * Is this refusal a rate limit? 429 always; the real service also answers 400 with a message about its rate
 * limit (the vendor's own evaluation scripts retry those), which is handled the same way: retried with backoff.
 */
export function isRateLimit(status: number, text: string | undefined): boolean {
  if (status === 429) return true;
  return status === 400 && /rate[\s_-]*limit|too many requests|throttl|quota exceeded/i.test(text ?? '');
}

function statusAdvice(status: number, retryAfterMs: number | undefined): string {
  if (status === 401 || status === 403) return 'Check that your API key is correct and allowed to use this endpoint.';
  if (status === 402)
    return `The account's credit balance is too low for this request: nothing was made. Add credits to the account (at ${PUBLIC_SERVICE_KEYS_PAGE}, profile and plans) or use another API key, then try again.`;
  if (status === 404) return 'Check the id or code you gave; it may be wrong or expired.';
  if (status === 409) return 'The resource is not in a state that allows this yet; check its status and try again.';
  if (status === 413) return 'The upload is too large; use a smaller file.';
  if (status === 429)
    return `Too many requests: wait ${retryAfterMs ? formatDuration(retryAfterMs) : 'a moment'} and try again.`;
  if (status >= 500) return 'The service is having problems; try again in a few minutes.';
  if (status >= 400) return 'Check the values you gave and try again.';
  return 'This version of Asset Studio may not match the service; update it or report the problem.';
}

export type ProtocolProblem = 'not-json' | 'empty' | 'truncated' | 'unexpected-shape';

/** The service answered, but the response could not be read. */
export class ProtocolError extends ApiError {
  readonly problem: ProtocolProblem;

  /** Only a truncated response to an idempotent request is safe to retry. */
  constructor(f: {
    endpoint: string;
    problem: ProtocolProblem;
    status?: number;
    /** not-json: start of the body; truncated: the low-level code; unexpected-shape: what did not match. */
    detail?: string;
    idempotent?: boolean;
  }) {
    const http = f.status === undefined ? '' : ` HTTP ${f.status}`;
    const text: Record<ProtocolProblem, string> = {
      'not-json': `the service answered${http} with a body that is not JSON: "${f.detail ?? ''}". A proxy or gateway may be in the way; check your network settings or try again later.`,
      empty: `the service answered${http} with an empty body. Try again; if it keeps happening, report the problem.`,
      truncated: `the response was cut off before it was complete (${f.detail ?? 'connection closed'}). Check your connection and try again.`,
      'unexpected-shape': `the service answered with data in an unexpected format (${f.detail ?? 'unknown difference'}). Update Asset Studio or report the problem.`,
    };
    super('protocol', `${f.endpoint}: ${text[f.problem]}`, {
      endpoint: f.endpoint,
      retryable: f.problem === 'truncated' && f.idempotent === true,
      ...(f.status !== undefined && { status: f.status }),
    });
    this.problem = f.problem;
  }
}

export type TimeoutPhase = 'connect' | 'headers' | 'body';

export class TimeoutError extends ApiError {
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;

  /** A connect timeout is always safe to retry (nothing was sent); the others only when idempotent. */
  constructor(f: { endpoint: string; phase: TimeoutPhase; timeoutMs: number; idempotent: boolean }) {
    const limit = formatDuration(f.timeoutMs);
    const what: Record<TimeoutPhase, string> = {
      connect: `could not connect to the service within ${limit} (connect timeout). Check your connection, proxy or firewall and try again.`,
      headers: `the service did not answer within ${limit} (headers timeout). Check your connection or try again; raise --timeout for slow networks.`,
      body: `the service stopped sending its response for ${limit} (body timeout). Check your connection or try again; raise --timeout for slow networks.`,
    };
    super('timeout', `${f.endpoint}: ${what[f.phase]}`, {
      endpoint: f.endpoint,
      retryable: f.phase === 'connect' || f.idempotent,
    });
    this.phase = f.phase;
    this.timeoutMs = f.timeoutMs;
  }
}

/** Codes of failures that happen before the request reaches the service. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

export class NetworkError extends ApiError {
  /** Low-level code such as ECONNRESET, ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET. */
  readonly networkCode: string;

  /** Safe to retry when the request never reached the service, otherwise only when idempotent. */
  constructor(f: { endpoint: string; code: string; detail: string; idempotent: boolean }) {
    let what: string;
    if (f.code === 'ECONNREFUSED')
      what =
        'the service refused the connection (ECONNREFUSED). Check the service address and that the service is up, then try again.';
    else if (f.code === 'ENOTFOUND' || f.code === 'EAI_AGAIN')
      what = `could not find the service host (${f.code}). Check the service address and your internet connection.`;
    else if (f.code === 'ECONNRESET' || f.code === 'EPIPE' || f.code === 'UND_ERR_SOCKET')
      what = `the connection was closed unexpectedly (${f.code}). Check your connection, proxy or VPN and try again.`;
    else what = `a network error occurred (${f.code}: ${f.detail}). Check your connection and try again.`;
    super('network', `${f.endpoint}: ${what}`, {
      endpoint: f.endpoint,
      retryable: NOT_SENT_CODES.has(f.code) || f.idempotent,
    });
    this.networkCode = f.code;
  }
}

/** Cancelled through an AbortSignal. */
export class CancelledError extends ApiError {
  /** The request body was cut off before its end, so the service cannot have acted on the request. */
  readonly unsent: boolean;

  constructor(f: { endpoint: string; unsent?: boolean }) {
    super(
      'cancelled',
      `${f.endpoint}: the request was cancelled before it finished. Run the command again if you still need it.`,
      {
        endpoint: f.endpoint,
        retryable: false,
      },
    );
    this.unsent = f.unsent ?? false;
  }
}

/**
 * The request never left this machine whole, so the service cannot have acted on it: refused before sending
 * (invalid), no connection made, a network failure before the first byte, or a body cancelled before its end.
 */
export function neverSent(error: unknown): boolean {
  if (error instanceof RequestValidationError) return true;
  if (error instanceof TimeoutError) return error.phase === 'connect';
  if (error instanceof NetworkError) return NOT_SENT_CODES.has(error.networkCode);
  if (error instanceof CancelledError) return error.unsent;
  return false;
}

/** `250 ms`, `1.5 s`, `30 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
