// The bytes of an image named by a data URI or an http(s) URL, for comparing pictures. Downloads carry
// no API key (the URLs are signed object-storage links, possibly on other hosts) and stop at a size cap.
// They go through the project's undici (an Agent per download, redirects followed, destroyed at the end),
// never Node's built-in fetch; the body is read to its end or destroyed, within a time limit.
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { dataUriMime, isHttpUrl } from '../../shared/contract/index.ts';
import { readCapped } from '../api/transport.ts';

/** Above the largest image the app uploads (50 MiB), so a hosted copy of any upload can be read. */
export const MAX_IMAGE_BYTES = 64 * 2 ** 20;
const TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

export class ImageUnavailableError extends Error {}

export async function imageBytes(source: string, signal?: AbortSignal): Promise<Buffer> {
  if (source.startsWith('data:')) return dataUriBytes(source);
  if (!isHttpUrl(source)) throw new ImageUnavailableError('it is neither a data URI nor an http(s) URL');
  const limit = AbortSignal.timeout(TIMEOUT_MS);
  const agent = new Agent({ headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, connect: { timeout: 30_000 } });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  let res: Dispatcher.ResponseData | undefined;
  try {
    try {
      res = await request(source, {
        dispatcher,
        method: 'GET',
        signal: signal ? AbortSignal.any([signal, limit]) : limit,
      });
    } catch (error) {
      throw new ImageUnavailableError(`it could not be downloaded (${reasonOf(error)})`);
    }
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new ImageUnavailableError(`its download answered ${res.statusCode}`);
    let bytes: Buffer | undefined;
    try {
      bytes = await readCapped(res, MAX_IMAGE_BYTES);
    } catch (error) {
      throw new ImageUnavailableError(`its download broke off (${reasonOf(error)})`);
    }
    if (bytes === undefined) throw new ImageUnavailableError(`it is larger than ${MAX_IMAGE_BYTES / 2 ** 20} MiB`);
    return bytes;
  } finally {
    if (res && !res.body.destroyed) {
      res.body.on('error', () => undefined); // its "aborted" is expected: the rest was not wanted
      res.body.destroy();
    }
    await agent.destroy().catch(() => undefined);
  }
}

function reasonOf(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { name?: string } };
  return e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError' ? 'no answer in time' : String(e?.message);
}

function dataUriBytes(uri: string): Buffer {
  if (dataUriMime(uri) === undefined) throw new ImageUnavailableError('it is not a base64 data URI');
  return Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');
}
