// The bytes of an image named by a data URI or an http(s) URL, for comparing pictures. Downloads carry
// no API key (the URLs are signed object-storage links, possibly on other hosts) and stop at a size cap.
import { dataUriMime, isHttpUrl } from '../../shared/contract/index.ts';

/** Above the largest image the app uploads (50 MiB), so a hosted copy of any upload can be read. */
export const MAX_IMAGE_BYTES = 64 * 2 ** 20;
const TIMEOUT_MS = 60_000;

export class ImageUnavailableError extends Error {}

export async function imageBytes(source: string, signal?: AbortSignal): Promise<Buffer> {
  if (source.startsWith('data:')) return dataUriBytes(source);
  if (!isHttpUrl(source)) throw new ImageUnavailableError('it is neither a data URI nor an http(s) URL');
  let res: Response;
  const limit = AbortSignal.timeout(TIMEOUT_MS);
  try {
    res = await fetch(source, { signal: signal ? AbortSignal.any([signal, limit]) : limit, redirect: 'follow' });
  } catch (error) {
    throw new ImageUnavailableError(
      `it could not be downloaded (${(error as Error).name === 'TimeoutError' ? 'no answer in time' : (error as Error).message})`,
    );
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new ImageUnavailableError(`its download answered ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_IMAGE_BYTES) {
    await res.body.cancel();
    throw new ImageUnavailableError(`it is larger than ${MAX_IMAGE_BYTES / 2 ** 20} MiB`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > MAX_IMAGE_BYTES) {
        await res.body.cancel().catch(() => undefined);
        throw new ImageUnavailableError(`it is larger than ${MAX_IMAGE_BYTES / 2 ** 20} MiB`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ImageUnavailableError) throw error;
    throw new ImageUnavailableError(`its download broke off (${(error as Error).message})`);
  }
  return Buffer.concat(chunks);
}

function dataUriBytes(uri: string): Buffer {
  if (dataUriMime(uri) === undefined) throw new ImageUnavailableError('it is not a base64 data URI');
  return Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64');
}
