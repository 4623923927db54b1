// Routing and request validation driven by the contract's ENDPOINTS table, so the engine and the API
// client cannot drift: same paths, same request schemas, same success status and message.
import type { IncomingMessage } from 'node:http';
import type * as z from 'zod';
import { ENDPOINTS, issuesToText, parseWith, type EndpointDef, type EndpointId } from '../../shared/contract/index.ts';
import { ENGINE_ACCEPTS, isOlderCreate, v3SchemaFor } from './accepted.ts';
import { bodyKindOf } from './body-type.ts';
import { HttpError, jsonReply, readJsonBody, type Reply } from './http.ts';

type Def<E extends EndpointId> = (typeof ENDPOINTS)[E];
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type BodyOf<E extends EndpointId> =
  Def<E> extends { acceptedBody: infer S }
    ? Parsed<S>
    : Def<E> extends { body: infer S }
      ? Def<E> extends { multipart: true }
        ? Parsed<S> | undefined // undefined when the request is multipart form data: read it from `req`
        : Parsed<S>
      : undefined;
type QueryOf<E extends EndpointId> = Def<E> extends { query: infer S } ? Parsed<S> : undefined;

export interface Call<E extends EndpointId> {
  userId: string;
  /** Epoch milliseconds when the request arrived. */
  now: number;
  params: Record<string, string>;
  body: BodyOf<E>;
  query: QueryOf<E>;
  req: IncomingMessage;
  /** The address the request came to (the older create answers a little differently at each). */
  base: Base;
}

/** What a handler returns: the `data` of the envelope (or the bare /v3 object). */
export type Handler<E extends EndpointId> = (call: Call<E>) => Promise<z.input<Def<E>['data']>>;
export type Handlers = { [E in EndpointId]: Handler<E> };

export type Base = 'base' | 'legacy';

export interface Route {
  id: EndpointId;
  params: Record<string, string>;
}

interface Compiled {
  id: EndpointId;
  def: EndpointDef;
  pattern: RegExp;
  names: string[];
}

const MAX_JSON_BYTES = 32 * 2 ** 20; // data-URI images travel in JSON bodies

// Literal paths first, so `/image-to-3d-sessions/get-mesh/:code` is never read as a session code.
const COMPILED: Compiled[] = (Object.entries(ENDPOINTS) as [EndpointId, EndpointDef][])
  .map(([id, def]) => {
    const names: string[] = [];
    const source = def.path.replace(/:([a-z_]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { id, def, names, pattern: new RegExp(`^${source}/?$`) };
  })
  .sort((a, b) => a.names.length - b.names.length);

/**
 * Finds the endpoint of a request. The legacy address serves its older variants and, like the
 * service's shared host, every other endpoint too. A path that exists with another method is a 405.
 */
export function matchRoute(base: Base, method: string, pathname: string): Route | undefined {
  const candidates =
    base === 'legacy'
      ? [...COMPILED.filter((c) => c.def.base === 'legacy'), ...COMPILED]
      : COMPILED.filter((c) => c.def.base === 'base');
  const allowed = new Set<string>();
  for (const c of candidates) {
    const m = c.pattern.exec(pathname);
    if (!m) continue;
    if (c.def.method !== method) {
      allowed.add(c.def.method);
      continue;
    }
    const params: Record<string, string> = {};
    c.names.forEach((name, i) => {
      params[name] = decodePathPart(m[i + 1]!);
    });
    return { id: c.id, params };
  }
  if (allowed.size > 0)
    throw new HttpError(405, `${method} is not allowed here; use ${[...allowed].join(' or ')}.`, {
      allow: [...allowed].join(', '),
    });
  return undefined;
}

function decodePathPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, `The path holds a malformed escape sequence: ${text}`);
  }
}

/**
 * Validates the request against the endpoint's schemas (the engine's wider ones of accepted.ts where it has
 * them), runs the handler and wraps its result. A create at the base address whose body has the older create's
 * parameters is the older create (as the service answered it).
 */
export async function dispatch(
  route: Route,
  req: IncomingMessage,
  url: URL,
  handlers: Handlers,
  userId: string,
  now: number,
  base: Base = 'base',
): Promise<Reply> {
  let id = route.id;
  let def: EndpointDef = ENDPOINTS[id];
  const kind = def.body ? bodyKindOf(req, { multipart: def.multipart === true }) : 'empty';
  const raw =
    def.body && kind !== 'multipart' ? (kind === 'json' ? await readJsonBody(req, MAX_JSON_BYTES) : {}) : undefined;
  if (id === 'createImageTo3d' && isOlderCreate(raw)) {
    id = 'createImageTo3dLegacy';
    def = ENDPOINTS[id];
  }
  const accepted = ENGINE_ACCEPTS[id];
  const schema = id === 'createRetopology' ? v3SchemaFor(raw) : (accepted?.body ?? def.acceptedBody ?? def.body);
  const body = raw !== undefined && schema ? validate(schema, raw) : undefined;
  const querySchema = accepted?.query ?? def.query;
  const query = querySchema ? validate(querySchema, Object.fromEntries(url.searchParams)) : undefined;
  const handler = handlers[id] as Handler<EndpointId>;
  const data = await handler({ userId, now, params: route.params, body, query, req, base } as Call<EndpointId>);
  return jsonReply(def.status, def.envelope ? { error: '', message: def.message, statusCode: def.status, data } : data);
}

function validate(schema: z.ZodType, value: unknown): unknown {
  const parsed = parseWith(schema, value);
  if (!parsed.ok) throw new HttpError(400, issuesToText(parsed.issues));
  return parsed.value;
}
