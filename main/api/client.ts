// The API client of the service: one typed method per endpoint of the contract table.
// Requests are validated before they leave the machine; responses are checked against the schemas.
import type * as z from 'zod';
import {
  ENDPOINTS,
  type EndpointData,
  type EndpointDef,
  type EndpointId,
  envelope,
  fillPath,
  pathParams,
  routeLabel,
  sessionCode,
} from '../../shared/contract/index.ts';
import { describeIssues, type FieldIssue } from '../../shared/contract/issues.ts';
import { multipartFile, type UploadProgressListener } from './upload.ts';
import {
  NetworkError,
  neverSent,
  ProtocolError,
  RequestValidationError,
  ServiceResponseError,
  TimeoutError,
} from './errors.ts';
import type { Logger } from './redact.ts';
import { HttpTransport, type StreamBody, type TransportOptions } from './transport.ts';

export interface ServiceClientOptions extends Omit<TransportOptions, 'apiKey'> {
  baseUrl: string;
  /** Address of the older endpoint variants (the same host with an explicit port). */
  legacyBaseUrl?: string | undefined;
  apiKey: string;
  logger?: Logger;
  /**
   * Finds the address again when the current one stops answering (refused or reset: the process that served
   * it exited; or silent past the time limits: that process is stopped): the embedded engine of the data
   * folder, another process's that ended or is stopped, is found again or started here. Undefined when there is
   * no other address. One call at a time; the request is sent once more to a new address when it is idempotent
   * or was never sent.
   */
  reconnect?: (failed: ServiceAddress) => Promise<ServiceAddress | undefined>;
}

export interface ServiceAddress {
  baseUrl: string;
  legacyBaseUrl?: string | undefined;
}

/** Codes of a connection that nobody answers any more (its server's process is gone). */
const GONE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * The address stopped answering: gone (refused, reset), or silent (no connection, or no answer at all within the
 * time limits: a stopped process, whose socket the system still accepts); false for a `mutating` call that may
 * have been acted on (sent, and then no answer), which must not be sent again.
 */
function stoppedAnswering(error: unknown, mutating: boolean): boolean {
  const stopped =
    (error instanceof NetworkError && GONE_CODES.has(error.networkCode)) ||
    (error instanceof TimeoutError && (error.phase === 'connect' || error.phase === 'headers'));
  return stopped && (!mutating || neverSent(error));
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Attempts for a read (1 = no automatic retry, e.g. when a scheduler handles 429 itself). */
  maxAttempts?: number;
}

type Body<E extends EndpointId> = (typeof ENDPOINTS)[E] extends { body: infer S extends z.ZodType }
  ? z.input<S>
  : never;
type Query<E extends EndpointId> = (typeof ENDPOINTS)[E] extends { query: infer S extends z.ZodType }
  ? z.input<S>
  : never;

export interface CallArgs {
  params?: Record<string, string>;
  body?: unknown;
  query?: unknown;
  /** Local file sent as multipart form data (field `file`), for the endpoints that take one. */
  file?: string;
  /** Called as the bytes of `file` are sent. */
  onUploadProgress?: UploadProgressListener | undefined;
  signal?: AbortSignal | undefined;
  /** Attempts for a read (1 = no automatic retry, e.g. when a scheduler handles 429 itself). */
  maxAttempts?: number;
}

/** A validated call, ready to send: what the journal records before a create leaves the machine. */
export interface PreparedCall<E extends EndpointId = EndpointId> {
  id: E;
  params: Record<string, string>;
  /** The validated body with defaults filled in. */
  body?: unknown;
  query?: Record<string, string | undefined>;
  file?: string;
  onUploadProgress?: UploadProgressListener;
  signal?: AbortSignal;
  maxAttempts?: number;
}

export class ServiceClient {
  #baseUrl: string;
  #legacyBaseUrl: string | undefined;
  readonly transport: HttpTransport;
  readonly #reconnect: ServiceClientOptions['reconnect'];
  /** The re-resolution under way: concurrent calls that fail share it. */
  #reconnecting: Promise<boolean> | undefined;

  constructor(options: ServiceClientOptions) {
    this.#baseUrl = trimSlash(options.baseUrl);
    this.#legacyBaseUrl = options.legacyBaseUrl ? trimSlash(options.legacyBaseUrl) : undefined;
    this.transport = new HttpTransport(options);
    this.#reconnect = options.reconnect;
  }

  /** The address requests go to (it changes when `reconnect` finds another). */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  get legacyBaseUrl(): string | undefined {
    return this.#legacyBaseUrl;
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** Calls one endpoint of the contract table: validate, send, check the answer, unwrap the envelope. */
  async call<E extends EndpointId>(id: E, args: CallArgs = {}): Promise<EndpointData<E>> {
    return this.send(this.prepare(id, args));
  }

  /**
   * Validates a call without sending it: path parameters, body (with the spec's defaults filled in) and
   * query. Throws RequestValidationError naming every wrong field. The journal records what this returns.
   */
  prepare<E extends EndpointId>(id: E, args: CallArgs = {}): PreparedCall<E> {
    const def: EndpointDef = ENDPOINTS[id];
    const route = routeLabel(id);
    const issues: FieldIssue[] = [];
    const params: Record<string, string> = {};
    for (const name of pathParams(def.path)) {
      const checked = sessionCode.safeParse(args.params?.[name]);
      if (checked.success) params[name] = checked.data;
      else issues.push(...describeIssues(checked.error).map((i) => ({ ...i, path: name })));
    }
    const body = def.body && args.file === undefined ? validate(def.body, args.body ?? {}, issues) : undefined;
    const query = def.query ? validate(def.query, args.query ?? {}, issues) : undefined;
    if (args.file !== undefined && !def.multipart)
      issues.push({ path: 'file', message: 'this endpoint does not take a file' });
    if (def.base === 'legacy' && this.legacyBaseUrl === undefined) {
      issues.push({
        path: 'legacy base URL',
        message: 'is not configured: set --legacy-base-url or ASSET_STUDIO_LEGACY_BASE_URL',
      });
    }
    if (issues.length > 0) throw new RequestValidationError({ endpoint: route, issues });
    return {
      id,
      params,
      ...(body !== undefined && { body }),
      ...(query !== undefined && { query: stringify(query as Record<string, unknown>) }),
      ...(args.file !== undefined && { file: args.file }),
      ...(args.onUploadProgress && { onUploadProgress: args.onUploadProgress }),
      ...(args.signal && { signal: args.signal }),
      ...(args.maxAttempts !== undefined && { maxAttempts: args.maxAttempts }),
    };
  }

  /**
   * Sends a prepared call. When the address stops answering (refused, reset, or silent: no connection or no
   * answer within the time limits, as from a stopped process) and `reconnect` finds another, the call is sent
   * once more there if it is idempotent or was never sent (refused, connect timeout).
   */
  async send<E extends EndpointId>(call: PreparedCall<E>): Promise<EndpointData<E>> {
    const def: EndpointDef = ENDPOINTS[call.id];
    const route = routeLabel(call.id);
    const stream = call.file === undefined ? undefined : await fileBody(route, call.file, call.onUploadProgress);
    const sentTo = this.#baseUrl;
    try {
      return await this.#send(call, def, route, stream);
    } catch (error) {
      if (!stoppedAnswering(error, def.mutating)) throw error;
      if (call.signal?.aborted || !(await this.#moved(sentTo))) throw error;
      return this.#send(call, def, route, stream);
    }
  }

  /** Asks `reconnect` for another address than `sentTo`; true when there is one (now used). */
  async #moved(sentTo: string): Promise<boolean> {
    const reconnect = this.#reconnect;
    if (reconnect === undefined) return false;
    await this.#reconnecting;
    if (this.#baseUrl !== sentTo) return true; // another call that failed found it meanwhile
    const failed = { baseUrl: this.#baseUrl, legacyBaseUrl: this.#legacyBaseUrl };
    this.#reconnecting ??= reconnect(failed)
      .then(
        (found) => {
          if (found === undefined) return false;
          const baseUrl = trimSlash(found.baseUrl);
          const legacyBaseUrl = found.legacyBaseUrl ? trimSlash(found.legacyBaseUrl) : undefined;
          if (baseUrl === failed.baseUrl && legacyBaseUrl === failed.legacyBaseUrl) return false;
          this.#baseUrl = baseUrl;
          this.#legacyBaseUrl = legacyBaseUrl;
          return true;
        },
        () => false,
      )
      .finally(() => (this.#reconnecting = undefined));
    return this.#reconnecting;
  }

  async #send<E extends EndpointId>(
    call: PreparedCall<E>,
    def: EndpointDef,
    route: string,
    stream: StreamBody | undefined,
  ): Promise<EndpointData<E>> {
    const base = def.base === 'legacy' ? this.#legacyBaseUrl! : this.#baseUrl;
    const response = await this.transport.request({
      method: def.method,
      url: base + fillPath(def.path, call.params),
      route: route.slice(def.method.length + 1),
      ...(call.body !== undefined && { json: call.body }),
      ...(stream !== undefined && { stream }),
      ...(call.query !== undefined && { query: call.query }),
      idempotent: !def.mutating,
      ...(call.signal && { signal: call.signal }),
      ...(call.maxAttempts !== undefined && { maxAttempts: call.maxAttempts }),
    });
    return unwrap(def, route, response.status, response.body) as EndpointData<E>;
  }

  // ---- one method per endpoint ----------------------------------------------------------------

  createImageTo3d(body: Body<'createImageTo3d'>, o: CallOptions = {}) {
    return this.call('createImageTo3d', { body, ...o });
  }
  createImageTo3dLegacy(body: Body<'createImageTo3dLegacy'>, o: CallOptions = {}) {
    return this.call('createImageTo3dLegacy', { body, ...o });
  }
  submitSpin(body: Body<'submitSpin'>, o: CallOptions = {}) {
    return this.call('submitSpin', { body, ...o });
  }
  preview(sessionCode: string, body: Body<'preview'> = {}, o: CallOptions = {}) {
    return this.call('preview', { params: { session_code: sessionCode }, body, ...o });
  }
  refine(sessionCode: string, body: Body<'refine'> = {}, o: CallOptions = {}) {
    return this.call('refine', { params: { session_code: sessionCode }, body, ...o });
  }
  getImageTo3d(sessionCode: string, o: CallOptions = {}) {
    return this.call('getImageTo3d', { params: { session_code: sessionCode }, ...o });
  }
  listImageTo3d(query: Query<'listImageTo3d'> = {}, o: CallOptions = {}) {
    return this.call('listImageTo3d', { query, ...o });
  }
  getMesh(sessionCode: string, o: CallOptions = {}) {
    return this.call('getMesh', { params: { session_code: sessionCode }, ...o });
  }
  createRetopology(body: Body<'createRetopology'>, o: CallOptions = {}) {
    return this.call('createRetopology', { body, ...o });
  }
  getV3Session(sessionId: string, o: CallOptions = {}) {
    return this.call('getV3Session', { params: { session_id: sessionId }, ...o });
  }
  createTextToImage(body: Body<'createTextToImage'>, o: CallOptions = {}) {
    return this.call('createTextToImage', { body, ...o });
  }
  getTextToImage(sessionCode: string, o: CallOptions = {}) {
    return this.call('getTextToImage', { params: { session_code: sessionCode }, ...o });
  }
  createStyle(body: Body<'createStyle'>, o: CallOptions = {}) {
    return this.call('createStyle', { body, ...o });
  }
  /** Upload a local FBX/zip (streamed from disk as multipart) or point the service at a URL. */
  uploadAnimationMesh(
    source: { file: string } | { mesh_url: string },
    o: CallOptions & { onUploadProgress?: UploadProgressListener } = {},
  ) {
    return 'file' in source
      ? this.call('uploadAnimationMesh', { file: source.file, ...o })
      : this.call('uploadAnimationMesh', { body: source, ...o });
  }
  submitTextAnimations(body: Body<'submitTextAnimations'>, o: CallOptions = {}) {
    return this.call('submitTextAnimations', { body, ...o });
  }
  getAnimation(sessionCode: string, o: CallOptions = {}) {
    return this.call('getAnimation', { params: { session_code: sessionCode }, ...o });
  }
  listAnimations(query: Query<'listAnimations'> = {}, o: CallOptions = {}) {
    return this.call('listAnimations', { query, ...o });
  }
}

function validate(schema: z.ZodType, value: unknown, issues: FieldIssue[]): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...describeIssues(result.error));
  return undefined;
}

/** Response schemas per endpoint, built once: building a zod schema costs far more than using it. */
const responseSchemas = new Map<EndpointDef, z.ZodType>();

function responseSchema(def: EndpointDef): z.ZodType {
  let schema = responseSchemas.get(def);
  if (!schema) {
    schema = def.envelope ? envelope(def.data) : def.data;
    responseSchemas.set(def, schema);
  }
  return schema;
}

/** Checks the answer against the endpoint's schema and unwraps the envelope. */
function unwrap(def: EndpointDef, route: string, status: number, body: unknown): unknown {
  // An envelope that reports an error is a refusal, whatever its data looks like.
  const env = body as { error?: unknown; message?: unknown } | null;
  if (def.envelope && typeof env?.error === 'string' && env.error !== '') {
    const serviceMessage = typeof env.message === 'string' ? env.message : undefined;
    throw new ServiceResponseError({
      endpoint: route,
      status,
      idempotent: !def.mutating,
      serviceError: env.error,
      ...(serviceMessage !== undefined && { serviceMessage }),
    });
  }
  const schema = responseSchema(def);
  const result = schema.safeParse(body);
  if (!result.success) {
    const first = describeIssues(result.error).slice(0, 3);
    const detail = first.map((i) => `${i.path === '(body)' ? 'the body' : i.path} ${i.message}`).join('; ');
    throw new ProtocolError({ endpoint: route, problem: 'unexpected-shape', status, detail });
  }
  return def.envelope ? (result.data as { data: unknown }).data : result.data;
}

/** The multipart body of a local file; a file that cannot be read means the request is not sent. */
async function fileBody(
  route: string,
  path: string,
  onProgress: UploadProgressListener | undefined,
): Promise<StreamBody> {
  try {
    return await multipartFile(path, onProgress);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new RequestValidationError({
      endpoint: route,
      issues: [{ path: 'file', message: `cannot be read (${code}): ${path}` }],
    });
  }
}

function stringify(query: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === undefined ? undefined : String(v)]));
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
