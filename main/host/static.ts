// The renderer's files, for the web host and Electron's app:// protocol alike: safe path resolution
// (nothing outside the folder), caching, the Content-Security-Policy, and the page shown when the UI has
// not been built. answerAsset is the whole answer; each transport sends it with its adapter (main/serve).
import { existsSync, statSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import { answerFile, textAnswer, type Answer, type FileRequest } from '../serve/answer.ts';
import { contentTypeOf } from '../serve/content-types.ts';

export const DEFAULT_RENDERER_DIR = resolve(import.meta.dirname, '..', '..', 'dist', 'renderer');

/**
 * The CSP of every page and response. `'wasm-unsafe-eval'` lets Babylon compile WASM decoders (not eval);
 * `connect` adds the event socket's origins on the web host.
 */
export function contentSecurityPolicy(connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    `connect-src ${["'self'", ...connect].join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Renderer scripts that run as dedicated workers under a policy of their own (a worker loaded by URL takes
 * the CSP of its own response, not the page's): the KTX2 decoder (renderer/viewer/ktx2/), whose Basis
 * Universal transcoder (emscripten embind) builds its bindings with `new Function`. The worker has no DOM
 * and no access to the page or the bridge; it only receives texture bytes and answers pixels. So `eval` is
 * allowed there, and the page itself keeps a policy without it.
 */
const EVAL_WORKERS = new Set(['/babylon/ktx2-worker.js']);

export function workerContentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The CSP a renderer file is served with, if not the page's (`pathname` as in the URL). */
export function assetContentSecurityPolicy(pathname: string): string | undefined {
  return EVAL_WORKERS.has(pathname) ? workerContentSecurityPolicy() : undefined;
}

/** Headers every response carries (the CSP included). */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

/** The file under `root` a URL path names (`/` is index.html); undefined when missing or outside `root`. */
export function resolveAsset(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^[/\\]+/, '');
  const base = resolve(root);
  const path = resolve(base, relative);
  if (path !== base && !path.startsWith(base + sep)) return undefined;
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

export function isBuilt(root: string): boolean {
  return existsSync(join(root, 'index.html'));
}

/** Shown instead of the UI when dist/renderer has no index.html. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Asset Studio: the UI is not built</title></head>
<body><h1>The user interface is not built</h1>
<p>Asset Studio is running, but its user interface has not been built yet. In the project folder, run</p>
<pre>npm run build</pre>
<p>then reload this page.</p></body></html>
`;

/**
 * The renderer's file at a URL path: pages are never cached, chunks carry a content hash in their names
 * (a year, immutable), anything else is revalidated by its ETag. The KTX2 worker carries its own CSP.
 */
export async function answerAsset(rendererDir: string, pathname: string, req: FileRequest): Promise<Answer> {
  if (!isBuilt(rendererDir)) return textAnswer(503, NOT_BUILT_PAGE, 'text/html; charset=utf-8');
  const file = resolveAsset(rendererDir, pathname);
  const answer =
    file === undefined
      ? undefined
      : await answerFile(req, { path: file, contentType: contentTypeOf(file), cacheControl: assetCaching(pathname) });
  if (answer === undefined) return textAnswer(404, `Not found: ${pathname}`);
  const ownPolicy = assetContentSecurityPolicy(pathname);
  if (ownPolicy !== undefined) answer.headers['content-security-policy'] = ownPolicy;
  return answer;
}

function assetCaching(pathname: string): string {
  if (pathname === '/' || pathname.endsWith('.html')) return 'no-store';
  return pathname.startsWith('/chunks/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}
