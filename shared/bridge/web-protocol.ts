// The wire protocol of the local web host (main/host/web-host.ts serves it, renderer/bridge/web-client.ts
// speaks it). Both sides import these names; the full description is at the top of web-host.ts.
import { isObjOutput, parseOutputKind } from '../output-kind.ts';
import type { EventName, EventPayload } from './contract.ts';

export const WEB_PROTOCOL = {
  /**
   * The link printed: `/?token=T`. The page moves T into sessionStorage (`tokenStorageKey`) and out of the
   * address bar; it sends it as `Authorization: Bearer T` on every request and as the WebSocket subprotocol
   * `socketTokenPrefix + T` (with `socketProtocol`, the one the host selects). Never a cookie: a browser sends
   * cookies of 127.0.0.1 to every port there, so every other local server would receive it.
   */
  tokenParam: 'token',
  tokenStorageKey: 'asset-studio-token',
  socketProtocol: 'asset-studio',
  socketTokenPrefix: 'asset-studio.token.',
  /**
   * HttpOnly, SameSite=Strict cookie with Path=/cache/: a read-only capability for cached outputs (derived
   * from the token, set by the host), which images and the viewer load by URL without headers. It is
   * refused for anything else: commands, uploads and events need the token itself.
   */
  cacheCookieName: 'asset_studio_cache',
  /** `POST /api/call/<command>`: JSON input in, JSON output out (errors: a BridgeError with 4xx/5xx). */
  callPrefix: '/api/call/',
  /** WebSocket: one `EventMessage` per text frame, main → page only. */
  events: '/api/events',
  /** `POST /api/upload`: raw file body, its name URI-encoded in `x-file-name` → `UploadAnswer`. */
  upload: '/api/upload',
  fileNameHeader: 'x-file-name',
  /**
   * `GET /cache/<sessionId>/<kind>` (both URI-encoded): a cached output, with Range support;
   * `GET /cache/<sessionId>/<kind>/<entry path>` (each segment URI-encoded): a file inside a cached zip;
   * for an OBJ output, `<kind>/<kind>.obj` is the OBJ and `<kind>/<name>` a file it names (see cachePath).
   */
  cachePrefix: '/cache/',
} as const;

export interface EventMessage<E extends EventName = EventName> {
  event: E;
  payload: EventPayload<E>;
}

export interface UploadAnswer {
  uploadId: string;
  name: string;
  size: number;
}

/**
 * The URL (path) of a cached output on the web host. An OBJ output's path ends in a file name
 * (`/cache/<session>/obj/obj.obj`), so the MTL and textures it names resolve beside it
 * (`/cache/<session>/obj/mesh.mtl`), where the host serves the companions the cache keeps with it.
 */
export function cachePath(sessionId: string, kind: string): string {
  const path = `${WEB_PROTOCOL.cachePrefix}${encodeURIComponent(sessionId)}/${encodeURIComponent(kind)}`;
  return isObjOutput(parseOutputKind(kind)) ? `${path}/${encodeURIComponent(objFileNameOf(kind))}` : path;
}

/** The file name an OBJ output is served under (its companions are served beside it). */
export const objFileNameOf = (kind: string): string => `${kind}.obj`;

/** The URL (path) of a file inside a cached zip output: `<cachePath>/<entry path, URI-encoded per segment>`. */
export function cacheEntryPath(sessionId: string, kind: string, entry: string): string {
  return `${cachePath(sessionId, kind)}/${entry.split('/').map(encodeURIComponent).join('/')}`;
}

/** The parts of a cache path (after the prefix): session, kind, and the entry's still-encoded segments. */
export function parseCachePath(rest: string): { sessionId: string; kind: string; entry: string[] } | undefined {
  const [session, kind, ...entry] = rest.split('/');
  try {
    const sessionId = decodeURIComponent(session ?? '');
    const k = decodeURIComponent(kind ?? '');
    return sessionId && k ? { sessionId, kind: k, entry } : undefined;
  } catch {
    return undefined;
  }
}
