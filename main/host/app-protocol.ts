// Electron's app://studio/ protocol, without Electron: main/electron/main.ts hands this handler to
// protocol.handle. It serves what the web host serves, through the same answers (the renderer's files,
// cached outputs, files inside a cached zip) and the fetch adapter, every response with the CSP headers.
import type { DownloadCache } from '../cache/download-cache.ts';
import type { Answer } from '../serve/answer.ts';
import { textAnswer } from '../serve/answer.ts';
import { fetchFileRequest, toResponse, type RequestLike } from '../serve/fetch.ts';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import { answerCached } from './cache-routes.ts';
import { answerAsset } from './static.ts';

export interface AppProtocolOptions {
  /** The only host served (`studio`); anything else is 404. */
  host: string;
  rendererDir: string;
  /** The download cache of the services in use (they are rebuilt when the profile changes). */
  cache: () => Pick<DownloadCache, 'open'>;
  /** Headers every response carries (securityHeaders with the CSP). */
  headers: Record<string, string>;
}

export function appProtocolHandler(
  options: AppProtocolOptions,
): (request: RequestLike & { url: string }) => Promise<Response> {
  return async (request) => {
    const answer = await answerApp(options, request);
    return toResponse(request, answer, options.headers);
  };
}

async function answerApp(options: AppProtocolOptions, request: RequestLike & { url: string }): Promise<Answer> {
  const url = new URL(request.url);
  if (url.host !== options.host) return textAnswer(404, `Not found: ${request.url}`);
  if (request.method !== 'GET' && request.method !== 'HEAD') return textAnswer(405, 'Only GET is served here.');
  const req = fetchFileRequest(request);
  if (url.pathname.startsWith(WEB_PROTOCOL.cachePrefix)) return answerCached(options.cache(), url.pathname, req);
  return answerAsset(options.rendererDir, url.pathname, req);
}
