// The web host's token: 32 random bytes (base64url), always compared in constant time.
//
// It is never a cookie: a browser sends a cookie of 127.0.0.1 to every port of 127.0.0.1, so any other local
// web server would receive it. The page keeps it in sessionStorage (renderer/bridge/web-client.ts) and sends
// it as `Authorization: Bearer <token>` on every request, and on the event socket as the subprotocol
// `asset-studio.token.<token>` (a browser cannot set headers on a WebSocket).
//
// Cached outputs (`/cache/…`), which images and the viewer load by URL where no header can be set, are read with
// a capability in the URL's path: `/cache/~<capability>/<session>/<kind>`, the URLs main gives the page
// (cache.outputs, events). The capability is derived from the token (the token cannot be had back from it) and
// opens nothing but reads of cached outputs. It was a cookie (Path=/cache/) until issue #33: a cookie ignores
// ports, so a local server on another port that the browser visited under /cache/ received it, replayed it and
// downloaded a GLB knowing its session code; no header check helps against a replay made outside a browser. A
// path is sent to this host only, and never as a Referer (`Referrer-Policy: no-referrer` on every answer).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';

const CACHE_PREFIX = WEB_PROTOCOL.cachePrefix;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function sameToken(given: string, token: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The offered WebSocket subprotocols of a request (Sec-WebSocket-Protocol). */
function offeredProtocols(req: IncomingMessage): string[] {
  return (req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The token a request carries: `Authorization: Bearer`, or on a WebSocket upgrade its token subprotocol. */
export function tokenOf(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) return bearer;
  const offered = offeredProtocols(req).find((p) => p.startsWith(WEB_PROTOCOL.socketTokenPrefix));
  return offered?.slice(WEB_PROTOCOL.socketTokenPrefix.length);
}

/** Does the request carry one of the tokens itself (a cookie never does)? */
export function isAuthorized(req: IncomingMessage, ...tokens: string[]): boolean {
  const given = tokenOf(req);
  return given !== undefined && tokens.some((token) => sameToken(given, token));
}

/** The read-only capability for cached outputs, derived from the token (the token cannot be had back from it). */
export function cacheCapability(token: string): string {
  return createHmac('sha256', token).update('asset-studio cache read').digest('base64url');
}

/** A cache URL path (`/cache/<session>/<kind>…`, shared/bridge/web-protocol.ts's cachePath) with the capability. */
export function withCacheCapability(path: string, token: string): string {
  return `${CACHE_PREFIX}~${cacheCapability(token)}/${path.slice(CACHE_PREFIX.length)}`;
}

/**
 * The cache path a request may read: `/cache/~<capability>/rest` with the right capability gives `/cache/rest`;
 * a path without one is given as it is to a request carrying the token itself. Undefined: refused (401).
 */
export function readableCachePath(path: string, token: string, authorized: boolean): string | undefined {
  const keyed = /^\/cache\/~([^/]*)\/(.*)$/s.exec(path);
  if (keyed === null) return authorized ? path : undefined;
  return sameToken(keyed[1]!, cacheCapability(token)) ? `${CACHE_PREFIX}${keyed[2]}` : undefined;
}
