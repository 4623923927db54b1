// An output made on this machine rather than downloaded (the library's rendered thumbnail of a model):
// kept in the cache as any output is, a content-addressed blob under a (session, kind) entry, so it is
// served, evicted and deleted with the session's other files. Its entry's URL key is `local:<kind>`
// (`?from=<output>` when it was made from another output, e.g. the model a thumbnail shows).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { Store } from '../store/database.ts';
import { writeFileDurable } from '../durable/write-file.ts';
import { adoptBlob } from './blobs.ts';
import type { DownloadCache } from './download-cache.ts';

export interface LocalOutput {
  sessionId: string;
  jobId: string | null;
  kind: string;
  bytes: Uint8Array;
  /** What it was made from (another output's kind), kept in its URL key: `local:<kind>?from=<source>`. */
  source?: string;
}

/** The URL key of an output made here (from `source`, when given). */
export const localUrlKey = (kind: string, source?: string): string =>
  `local:${kind}${source === undefined ? '' : `?from=${source}`}`;

/** The output an output made here was made from, read back from its URL key; undefined for a downloaded one. */
export function localSource(urlKey: string): string | undefined {
  return urlKey.startsWith('local:') ? /[?]from=(.+)$/.exec(urlKey)?.[1] : undefined;
}

/** Stores the bytes as the session's `kind` output (replacing what it had) and announces it (`downloaded`). */
export async function keepLocalOutput(
  cache: DownloadCache,
  store: Store,
  output: LocalOutput,
  now = Date.now(),
): Promise<CacheEntry> {
  const entry = store.cache.upsert({
    sessionId: output.sessionId,
    jobId: output.jobId,
    kind: output.kind,
    urlKey: localUrlKey(output.kind, output.source),
    now,
  });
  const part = join(cache.dir, 'tmp', `${entry.id}.part`); // named as the cache names its partial files, so a crash leaves nothing the sweep misses
  await writeFileDurable(part, output.bytes, { private: true });
  const sha256 = createHash('sha256').update(output.bytes).digest('hex');
  const blobPath = await adoptBlob(cache.dir, part, sha256);
  const done = store.cache.markComplete(entry.id, { etag: null, size: output.bytes.length, sha256, blobPath, now });
  cache.emit('downloaded', done);
  return done;
}
