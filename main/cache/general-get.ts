// The download's general client: undici, through the app's one dispatcher (main/api/dispatcher.ts: the
// environment's proxy and certificates), for what the fast path of fast-get.ts does not handle (a redirect, a
// chunked body, a proxy, HTTP/1.0 framing). Loaded by the downloader the first time it needs it: undici adds
// about 27 MB to a process that only downloads. undici's exports are imported here by name, statically (a
// dynamic `import('undici')` loses them in the CLI's bundle: test/scripts/package-imports.test.ts).
import { request, type Dispatcher } from 'undici';
import { createDispatcher } from '../api/dispatcher.ts';
import { MAX_URL_READ_BYTES } from '../../shared/url-reading.ts';
import { BodyTooLarge, Retry, type HttpAnswer } from './http-answer.ts';

/** The dispatcher of the download cache's downloads: connect 10 s, head 30 s, 60 s at most without a byte. */
export function downloadDispatcher(): Dispatcher {
  return createDispatcher({ connectTimeoutMs: 10_000, headersTimeoutMs: 30_000, bodyTimeoutMs: 60_000 });
}

/** Sends the GET (no redirect followed: the downloader follows them itself). */
export async function generalGet(
  url: string,
  headers: Record<string, string>,
  dispatcher: Dispatcher,
  signal: AbortSignal | undefined,
): Promise<HttpAnswer> {
  const res = await request(url, { method: 'GET', headers, dispatcher, signal: signal ?? null });
  return {
    statusCode: res.statusCode,
    headers: res.headers,
    discard: () => res.body.dump().catch(() => undefined),
    read: async (writer, start, total) => {
      let received = start;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (total !== undefined && received > total)
          throw new Retry(`the server sent more than the ${total} bytes it announced`, true);
        if (received > MAX_URL_READ_BYTES) throw new BodyTooLarge(MAX_URL_READ_BYTES);
        await writer.add(chunk);
      }
    },
  };
}
