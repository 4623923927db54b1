// An output made on this machine rather than downloaded (the library's rendered thumbnail of a model):
// kept in the cache as any output is, a content-addressed blob under a (session, kind) entry, so it is
// served, evicted and deleted with the session's other files. Its entry's URL key is `local:<kind>`.
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
}

/** The URL key of an output made here. */
export const localUrlKey = (kind: string): string => `local:${kind}`;

/** Stores the bytes as the session's `kind` output (replacing what it had) and announces it (`downloaded`). */
export async function keepLocalOutput(cache: DownloadCache, store: Store, output: LocalOutput, now = Date.now()): Promise<CacheEntry> {
  const entry = store.cache.upsert({ sessionId: output.sessionId, jobId: output.jobId, kind: output.kind, urlKey: localUrlKey(output.kind), now });
  const part = join(cache.dir, 'tmp', `${entry.id}.part`); // named as the cache names its partial files, so a crash leaves nothing the sweep misses
  await writeFileDurable(part, output.bytes, { private: true });
  const sha256 = createHash('sha256').update(output.bytes).digest('hex');
  const blobPath = await adoptBlob(cache.dir, part, sha256);
  const done = store.cache.markComplete(entry.id, { etag: null, size: output.bytes.length, sha256, blobPath, now });
  cache.emit('downloaded', done);
  return done;
}
