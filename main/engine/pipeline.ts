// The life of one request: routing, request counting and fault rules, authentication, the handler or
// the file server, and delivery. The fault-rule control endpoint lives here too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { bodyKindOf } from './body-type.ts';
import { deliver, faultReply } from './delivery.ts';
import { FILES_PREFIX, type FileStore } from './file-store.ts';
import { serveFile } from './files.ts';
import type { Faults, FaultTarget } from './faults.ts';
import type { Notifier } from './notifier.ts';
import { errorReply, HttpError, jsonReply, readJsonBody, type Reply } from './http.ts';
import { dispatch, matchRoute, type Base, type Handlers, type Route } from './router.ts';
import type { Signer } from './signing.ts';

export interface PipelineDeps {
  handlers: Handlers;
  faults: Faults;
  files: FileStore;
  signer: Signer;
  /** Throws a 401 HttpError unless the request carries the API key. */
  authenticate(req: IncomingMessage): void;
  /** The account of the accepted key. */
  userId: string;
  log(line: string): void;
  logRequests: boolean;
  notifier: Notifier;
}

export const CONTROL_FAULTS_PATH = '/__engine/faults';
export const CONTROL_WEBHOOK_PATH = '/__engine/webhook';

export function createPipeline(
  deps: PipelineDeps,
): (base: Base, req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { faults, log } = deps;

  function failure(error: unknown, envelope: boolean): Reply {
    if (error instanceof HttpError) return errorReply(error.status, error.message, envelope, error.headers);
    log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return errorReply(500, 'The local engine failed to handle this request; see its log.', envelope);
  }

  /** POST replaces the fault rules, GET lists them with the request count; both need the API key. */
  async function control(req: IncomingMessage, method: string): Promise<Reply> {
    deps.authenticate(req);
    if (method === 'POST') {
      const rules = bodyKindOf(req, { multipart: false }) === 'json' ? await readJsonBody(req, 2 ** 20) : {};
      try {
        faults.replace(rules, `POST ${CONTROL_FAULTS_PATH}`);
      } catch (error) {
        throw new HttpError(400, (error as Error).message);
      }
    } else if (method !== 'GET') {
      throw new HttpError(405, `${method} is not allowed here; use GET or POST.`, { allow: 'GET, POST' });
    }
    return jsonReply(200, { rules: faults.list(), requests: faults.requestCount(), byEndpoint: faults.counts() });
  }

  /** POST `{url, secret?}` sets where the engine sends webhooks (`{}` stops them); GET shows it. Needs the API key. */
  async function webhookControl(req: IncomingMessage, method: string): Promise<Reply> {
    deps.authenticate(req);
    if (method === 'POST') {
      const body = (bodyKindOf(req, { multipart: false }) === 'json' ? await readJsonBody(req, 2 ** 16) : {}) as {
        url?: unknown;
        secret?: unknown;
      } | null;
      const url = body?.url;
      const secret = body?.secret;
      if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\//.test(url)))
        throw new HttpError(400, 'url: must be an http(s) URL');
      if (secret !== undefined && typeof secret !== 'string') throw new HttpError(400, 'secret: must be text');
      deps.notifier.configure(url === undefined ? undefined : { url, secret });
    } else if (method !== 'GET') {
      throw new HttpError(405, `${method} is not allowed here; use GET or POST.`, { allow: 'GET, POST' });
    }
    return jsonReply(200, {
      url: deps.notifier.target?.url ?? null,
      signed: Boolean(deps.notifier.target?.secret),
      sent: deps.notifier.sent,
    });
  }

  return async (base, req, res) => {
    const now = Date.now();
    const url = new URL(req.url ?? '/', 'http://engine');
    const method = req.method ?? 'GET';
    const envelope = !url.pathname.startsWith('/v3/');
    if (url.pathname === CONTROL_FAULTS_PATH)
      return deliver(req, res, await control(req, method).catch((e: unknown) => failure(e, true)));
    if (url.pathname === CONTROL_WEBHOOK_PATH)
      return deliver(req, res, await webhookControl(req, method).catch((e: unknown) => failure(e, true)));

    let route: Route | 'files' | undefined;
    try {
      route =
        url.pathname.startsWith(FILES_PREFIX) && (method === 'GET' || method === 'HEAD')
          ? 'files'
          : matchRoute(base, method, url.pathname);
    } catch (error) {
      faults.take(undefined, method);
      return deliver(req, res, failure(error, envelope));
    }
    const target: FaultTarget | undefined = route === 'files' ? 'files' : route?.id;
    const fault = faults.take(target, method);
    if (fault?.kind === 'reset') return void req.socket.destroy();
    if (fault?.kind === 'status') return deliver(req, res, faultReply(fault, envelope));

    let reply: Reply;
    try {
      if (route === 'files') reply = await serveFile(req, url, deps.files, deps.signer, now);
      else {
        deps.authenticate(req);
        if (route === undefined) throw new HttpError(404, `There is no endpoint ${method} ${url.pathname}.`);
        reply = await dispatch(route, req, url, deps.handlers, deps.userId, now, base);
      }
    } catch (error) {
      reply = failure(error, envelope);
    }
    if (fault?.kind === 'slow') await delay(fault.delayMs);
    if (deps.logRequests) log(`${method} ${url.pathname} ${reply.status}${fault ? ` (fault: ${fault.kind})` : ''}`);
    return deliver(req, res, reply, fault);
  };
}
