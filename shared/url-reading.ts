// How far a URL is followed when Asset Studio reads one that someone else gave it: the embedded engine's input
// reader (main/engine/inputs.ts: the image or mesh URL of a session) and the download cache (main/cache/downloader.ts:
// the signed links of a job's outputs, which a CDN often answers with a redirect). One home, so both follow the
// same hops, to the same schemes, and stop at the same size.

/** Redirect statuses that are followed (each to its Location, resolved against the URL that answered). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Redirects followed at the most; one more ends the read. */
export const MAX_REDIRECTS = 5;

/** The largest body read from a URL (the engine's default input cap; the download cache's cap per output). */
export const MAX_URL_READ_BYTES = 2 ** 30;

/** Only these schemes are read, at the start and after every redirect. */
export function isReadableScheme(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}
