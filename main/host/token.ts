// The web host's per-launch secret: 32 random bytes (base64url), carried by an HttpOnly SameSite=Strict
// cookie (or `Authorization: Bearer`), always compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** The token a request carries: its cookie, or an `Authorization: Bearer` header. */
export function tokenOf(req: IncomingMessage): string | undefined {
  const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  return bearer ?? cookieValue(req.headers.cookie, WEB_PROTOCOL.cookieName);
}

export function isAuthorized(req: IncomingMessage, token: string): boolean {
  const given = tokenOf(req);
  return given !== undefined && sameToken(given, token);
}

/** The Set-Cookie header that moves the token out of the URL: unreadable by scripts, never sent cross-site. */
export function tokenCookie(token: string): string {
  return `${WEB_PROTOCOL.cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
