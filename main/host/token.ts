// The web host's per-launch secret: 32 random bytes (base64url), always compared in constant time.
//
// It is never a cookie: a browser sends a cookie of 127.0.0.1 to every port of 127.0.0.1, so any other local
// web server would receive it. The page keeps it in sessionStorage (renderer/bridge/web-client.ts) and sends
// it as `Authorization: Bearer <token>` on every request, and on the event socket as the subprotocol
// `asset-studio.token.<token>` (a browser cannot set headers on a WebSocket). The only cookie is a read-only
// capability for cached outputs (`/cache/…`, which images and the viewer load by URL, where no header can be
// set): derived from the token, unusable for commands, uploads or events, and sent only to paths under /cache/.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function sameToken(given: string, token: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
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

/** Does the request carry the token itself (a cookie never does)? */
export function isAuthorized(req: IncomingMessage, token: string): boolean {
  const given = tokenOf(req);
  return given !== undefined && sameToken(given, token);
}

/** The read-only capability for cached outputs, derived from the token (the token cannot be had back from it). */
export function cacheCapability(token: string): string {
  return createHmac('sha256', token).update('asset-studio cache read').digest('base64url');
}

/** Does the request carry the cache capability cookie? (Only ever enough for a GET of `/cache/…`.) */
export function hasCacheCapability(req: IncomingMessage, token: string): boolean {
  const given = cookieValue(req.headers.cookie, WEB_PROTOCOL.cacheCookieName);
  return given !== undefined && sameToken(given, cacheCapability(token));
}

/** The Set-Cookie header of the cache capability: unreadable by scripts, never cross-site, only for /cache/. */
export function cacheCookie(token: string): string {
  return `${WEB_PROTOCOL.cacheCookieName}=${cacheCapability(token)}; HttpOnly; SameSite=Strict; Path=${WEB_PROTOCOL.cachePrefix}`;
}
