// The local web host: the same renderer and bridge as the desktop app, served to a browser on this machine.
//
// Wire protocol (names in shared/bridge/web-protocol.ts, browser side in renderer/bridge/web-client.ts):
// - Binds 127.0.0.1 on the port of the last launch when it is free, else a free port (saved-address.ts). A
//   random token (32 bytes, base64url) is kept with the port: a launch on the saved port keeps its token, so an
//   open tab reconnects; a launch on another port makes a new one. The URL printed to open is
//   `http://127.0.0.1:<port>/?token=<token>`. An explicit `port` option is used as it is and nothing is saved.
// - The token is never a cookie (a browser sends a cookie of 127.0.0.1 to every port there, so every other
//   local server would receive it). First visit: `GET /?token=T` serves the page (a wrong token is 401); the
//   page moves T into sessionStorage and out of the address bar, and sends it as `Authorization: Bearer T` on
//   every command and upload, and as the WebSocket subprotocol `asset-studio.token.T` beside `asset-studio`
//   (the one the host selects), compared in constant time: 401 without. The renderer's own files are served
//   without it. Cached outputs (`/cache/…`, loaded by URL by images and the viewer) are read with the token, or
//   with a read-only capability derived from it in their path, `/cache/~<capability>/<session>/<kind>`: the
//   URLs main gives the page (token.ts). No cookie is set (a cookie reaches every local port). The `Host` header must be
//   `127.0.0.1:<port>` or `localhost:<port>` (DNS rebinding): 421 else.
// - Every response carries the CSP (`connect-src 'self' ws://127.0.0.1:<port> ws://localhost:<port>`, no
//   inline script, `'wasm-unsafe-eval'` for Babylon's decoders), `X-Content-Type-Options: nosniff`,
//   `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`.
// - `POST /api/call/<command>`, `Content-Type: application/json`, body = the command's input (JSON, at most
//   1 MiB). 200 with the output as JSON; on failure a BridgeError `{code, message, issues?}` as JSON with
//   400 (invalid-input), 404 (not-found), 409 (conflict, submission-unknown, cancelled), 413, 415, 422
//   (file or export refused, key storage), 501 (unsupported here, e.g. native dialogs), 502/504 (the
//   service or network), 500 (a bug). A request with an `Origin` header from elsewhere is 403.
// - WebSocket `GET /api/events`: the upgrade needs `Origin` = the host's own origin (http://127.0.0.1:<port>
//   or http://localhost:<port>, matching Host; 403 else) and the token (its subprotocol, or a Bearer header; 401 else). Main sends one text frame per event,
//   `{"event": <EventName>, "payload": <EventPayload>}`; the page sends nothing (a frame closes the socket).
// - `POST /api/upload`: the raw file as the body (streamed to disk, at most 2 GiB), its name URI-encoded in
//   `x-file-name`. 200 `{uploadId, name, size}`; the uploadId stands for the file in `create` (`file:
//   {uploadId}`) and `batch.start` until the host stops. Local paths are refused on this transport.
// - `GET /cache/~<capability>/<sessionId>/<kind>`, or without the capability segment with the token (URI-encoded):
//   a complete cached output, its type from its bytes, with
//   `Content-Length`, `Range` (206/416), `ETag` and `If-None-Match` (304), HEAD; 404 when it is not in the
//   cache (host/cache-routes.ts, the same answers as Electron's app://). `cache.outputs` gives these URLs.
// - `GET /cache/<sessionId>/<kind>/<entry path>` (each segment URI-encoded): one file inside a cached zip
//   (main/cache/zip-entries.ts), its type by extension; 404 with the reason for a missing or unsafe name
//   (`..`, absolute). `cache.entries` lists them. The OBJ of a zip opened there finds its MTL and textures.
// - Anything else under GET is the renderer's files from dist/renderer (index.html at `/`), or a page
//   saying to run `npm run build` when the UI is not built.
// - While it runs, `<data dir>/link.json` ({url, token, pid, version}, 0600, link-file.ts) lets the user's
//   own tools (the Blender add-on) find it; they send its token as `Authorization: Bearer`. Removed on close.
//   That token is the link's own, new at every launch and never saved (the page's is kept with the port): the
//   add-on reads link.json again at every action, so a restart costs it nothing.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cachePath, WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { AppError } from '../../shared/errors.ts';
import { createServices, type ServiceOptions } from '../app/services.ts';
import { openDataFolder, type Notice } from '../store/data-folder.ts';
import type { ConnectionSources } from '../app/connection.ts';
import { nodeFileRequest, sendAnswer } from '../serve/node.ts';
import { BridgeService, type FileRef } from './bridge-service.ts';
import { answerCached } from './cache-routes.ts';
import { BridgeFailure, httpStatusOf, invalidInput, toBridgeError } from './errors.ts';
import { attachEventSocket } from './events-socket.ts';
import { answerAsset, contentSecurityPolicy, DEFAULT_RENDERER_DIR, securityHeaders } from './static.ts';
import { removeLinkFile, writeLinkFile } from './link-file.ts';
import { readSavedAddress, saveAddress } from './saved-address.ts';
import { isAuthorized, newToken, readableCachePath, sameToken, withCacheCapability } from './token.ts';
import { UploadStore } from './uploads.ts';

const MAX_JSON_BYTES = 2 ** 20;

export interface WebHostOptions {
  dataDir: string;
  /** A port (0: any free one), used as it is. Omitted: the port of the last launch when free, else a free one. */
  port?: number;
  /** The built renderer; default dist/renderer of this checkout. */
  rendererDir?: string;
  serviceOptions?: ServiceOptions;
  /**
   * The launch's flags and environment (scripts/start.ts passes process.env): ASSET_STUDIO_BASE_URL and
   * ASSET_STUDIO_API_KEY win over the saved profile. None given: the saved profile, else the embedded engine.
   */
  connectionSources?: Pick<ConnectionSources, 'flags' | 'env'>;
  /** Largest upload in bytes (default: the largest file the inspections accept). */
  maxUploadBytes?: number;
  /** Where the line saying the data folder was made private goes (default: standard error). */
  notice?: Notice;
  /**
   * A bridge already open (the desktop app's): the host serves it and leaves it open when it closes; its
   * platform resolves the host's upload ids with `resolveUpload`. None: the host opens its own.
   */
  bridge?: BridgeService;
}

export interface RunningWebHost {
  /** The URL to open: it holds the token, which the page moves to its sessionStorage at the first visit. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /**
   * The token of the local link (link.json, the Blender add-on): new at every launch, never saved. The page's
   * token is kept with the port so an open tab reconnects; a tool reads link.json again at each action.
   */
  linkToken: string;
  bridge: BridgeService;
  /** The local path of a file uploaded to this host (for a bridge passed in `options.bridge`). */
  resolveUpload(uploadId: string): string;
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  // Created 0700, or made private, before anything is written there; DataFolderError when it cannot be used.
  if (options.bridge === undefined) openDataFolder(options.dataDir, { notice: options.notice });
  const saved = options.port === undefined ? await readSavedAddress(options.dataDir) : undefined;
  // The token of the saved port goes with it (set before the listen: a request may come at once).
  let token = saved?.token ?? newToken();
  const linkToken = newToken();
  const uploads = new UploadStore(options.dataDir, options.maxUploadBytes);
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  const ownBridge = options.bridge === undefined;
  const bridge =
    options.bridge ??
    (await BridgeService.open({
      dataDir: options.dataDir,
      openServices: (connection) =>
        createServices(connection, { ...(options.notice && { notice: options.notice }), ...options.serviceOptions }),
      ...(options.connectionSources && { connectionSources: options.connectionSources }),
      platform: {
        transport: 'web',
        resolveFile: (ref: FileRef) => {
          if ('uploadId' in ref) return uploads.path(ref.uploadId);
          throw invalidInput('The file', [
            {
              path: 'file.path',
              message:
                'local paths are not taken by the web host: upload the file (drop it on the page) and pass its uploadId',
            },
          ]);
        },
        // The page loads cached outputs by URL: each carries the read capability (token.ts), never a cookie.
        cacheUrl: (sessionId, kind) => withCacheCapability(cachePath(sessionId, kind), token),
      },
    }));

  let port = 0;
  const hosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const origins = () => hosts().map((h) => `http://${h}`);
  let headers: Record<string, string> = {};
  /**
   * Whether a request is not from this machine's page of this host: 421 when its Host is not the host's
   * (DNS rebinding), 403 when its Origin is another site's (or missing where one is `required`); else undefined.
   */
  const foreignRequest = (req: IncomingMessage, origin: 'optional' | 'required'): 421 | 403 | undefined => {
    const host = req.headers.host ?? '';
    if (!hosts().includes(host)) return 421;
    const from = req.headers.origin;
    if ((from !== undefined || origin === 'required') && from !== `http://${host}`) return 403;
    return undefined;
  };
  /** Why an events socket is refused (status line: its Origin is required, and the token), or undefined. */
  const socketRefusal = (req: IncomingMessage): string | undefined => {
    const status = foreignRequest(req, 'required');
    if (status !== undefined) return `${status} ${STATUS_CODES[status]}`;
    return isAuthorized(req, token, linkToken) ? undefined : '401 Unauthorized';
  };

  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    handle(req, res).catch((error: unknown) => {
      const failure = toBridgeError(error, []);
      if (res.headersSent) return void res.destroy();
      if (!req.complete) res.setHeader('connection', 'close'); // the rest of a refused body is not read
      sendJson(res, httpStatusOf(failure), failure);
    });
  });
  // After the listen: an error of the listening socket (e.g. too many open files on accept) must not end
  // the process; the connections it could not take fail, the others are served.
  const serverError = (error: Error) => console.error(`Asset Studio web host: ${error.message}`);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req);
    const foreign = foreignRequest(req, 'optional');
    if (foreign !== undefined)
      return sendText(
        res,
        foreign,
        'This request was refused: open Asset Studio at http://127.0.0.1 or http://localhost with the port it printed.',
      );
    const given = req.method === 'GET' ? url.searchParams.get(WEB_PROTOCOL.tokenParam) : null;
    if (given !== null && !sameToken(given, token))
      return sendText(
        res,
        401,
        'This link is not valid (any more). Open the link Asset Studio printed when it started: the token changes when the host starts on another port.',
      );
    // Only the token itself (a header, never a cookie) opens commands, uploads and events.
    const authorized = isAuthorized(req, token, linkToken);
    const needsToken = () =>
      sendText(
        res,
        401,
        'Asset Studio needs its token: open the link it printed when it started (http://127.0.0.1:<port>/?token=...).',
      );
    const path = url.pathname;
    if (path.startsWith(WEB_PROTOCOL.callPrefix)) {
      if (!authorized) return needsToken();
      if (req.method !== 'POST') return sendText(res, 405, 'Commands are sent with POST.');
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
        return sendJson(res, 415, {
          code: 'invalid-input',
          message: 'Commands take a JSON body (Content-Type: application/json).',
        });
      const command = commandOf(path);
      const input = await readJson(req);
      try {
        return sendJson(res, 200, (await bridge.call(command, input)) ?? null);
      } catch (error) {
        const failure = error instanceof BridgeFailure ? error.error : toBridgeError(error, []);
        return sendJson(res, httpStatusOf(failure), failure);
      }
    }
    if (path === WEB_PROTOCOL.upload) {
      if (!authorized) return needsToken();
      if (req.method !== 'POST') return sendText(res, 405, 'Files are uploaded with POST.');
      try {
        return sendJson(res, 200, await uploads.receive(req));
      } catch (error) {
        const failure = toBridgeError(error, []);
        res.setHeader('connection', 'close'); // the rest of a refused body is not read
        return sendJson(res, httpStatusOf(failure), failure);
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Only GET is served here.');
    // The cached outputs and the renderer's files, answered as Electron's app:// answers them (main/serve).
    const fileRequest = nodeFileRequest(req);
    if (path.startsWith(WEB_PROTOCOL.cachePrefix)) {
      const readable = readableCachePath(path, token, authorized);
      if (readable === undefined) return needsToken();
      return sendAnswer(req, res, await answerCached(bridge.services.cache, readable, fileRequest));
    }
    // The renderer's own files hold no secret: served to this machine's browser (right Host) without the token.
    return sendAnswer(req, res, await answerAsset(rendererDir, path, fileRequest));
  }

  const events = attachEventSocket(server, bridge, {
    path: WEB_PROTOCOL.events,
    protocol: WEB_PROTOCOL.socketProtocol,
    allow: socketRefusal,
  });
  const listen = (at: number) =>
    new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', fail);
        ok();
      });
    });
  try {
    try {
      await listen(options.port ?? saved?.port ?? 0);
    } catch (error) {
      if (saved === undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      token = newToken(); // the saved port is taken: another port, another token
      await listen(0);
    }
  } catch (error) {
    if (ownBridge) await bridge.close();
    throw error;
  }
  server.on('error', serverError);
  port = (server.address() as AddressInfo).port;
  headers = securityHeaders(contentSecurityPolicy(origins().map((o) => o.replace(/^http:/, 'ws:'))));
  const origin = `http://127.0.0.1:${port}`;
  if (options.port === undefined && (saved?.port !== port || saved.token !== token))
    await saveAddress(options.dataDir, { port, token });
  // The local link: tools of this user (the Blender add-on) find the host and its token here (link-file.ts).
  await writeLinkFile(options.dataDir, { origin, token: linkToken });
  return {
    url: `${origin}/?${WEB_PROTOCOL.tokenParam}=${token}`,
    origin,
    port,
    token,
    linkToken,
    bridge,
    resolveUpload: (uploadId) => uploads.path(uploadId),
    close: async () => {
      await removeLinkFile(options.dataDir, linkToken);
      await events.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      if (ownBridge) await bridge.close();
      await uploads.clear();
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** The request's URL; a request target that is not one is refused (400). */
function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1');
  } catch {
    throw invalidInput('The request', [
      { path: '(url)', message: `${JSON.stringify(String(req.url).slice(0, 200))} is not a valid URL path` },
    ]);
  }
}

/** The command a `/api/call/<command>` path names (URI-decoded); a malformed escape is refused (400). */
function commandOf(path: string): string {
  const encoded = path.slice(WEB_PROTOCOL.callPrefix.length);
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw invalidInput('The command', [
      {
        path: 'command',
        message: `"${encoded.slice(0, 200)}" has a malformed percent-escape; send the command name URI-encoded (e.g. ${WEB_PROTOCOL.callPrefix}app.info)`,
      },
    ]);
  }
}

/** The JSON body of a command (at most MAX_JSON_BYTES); an empty body is `{}`. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_JSON_BYTES)
        throw new AppError(
          'input-too-large',
          'The command input is larger than 1 MiB. Send files through the upload, not inside a command.',
        );
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'cancelled',
      'The command input was cut off before its end (the connection closed). Send the command again.',
    );
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidInput('The command input', [{ path: '(body)', message: 'is not valid JSON' }]);
  }
}
