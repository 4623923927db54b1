// Deleting a session's files from the cache (the library's delete): its entries' rows first, then each
// blob no remaining entry shares (outputs with the same bytes share one blob), so a crash between the two
// leaves an orphan for the cache's sweep, never a row without its file.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store/database.ts';
import type { DownloadCache } from './download-cache.ts';

export interface DeletedFiles {
  /** Outputs forgotten. */
  entries: number;
  /** Blob files deleted (relative to the cache folder). */
  files: string[];
}

/** Forgets every cached output of the session and deletes the blobs no other entry uses. */
export async function deleteSessionFiles(cache: DownloadCache, store: Store, sessionId: string): Promise<DeletedFiles> {
  const mine = store.cache.listSession(sessionId);
  for (const entry of mine) store.cache.delete(entry.id);
  const stillUsed = new Set(store.cache.list().flatMap((e) => (e.blobPath === null ? [] : [e.blobPath])));
  const files = [...new Set(mine.flatMap((e) => (e.blobPath === null ? [] : [e.blobPath])))].filter(
    (path) => !stillUsed.has(path),
  );
  for (const path of files) await rm(join(cache.dir, path), { force: true });
  for (const entry of mine)
    if (entry.state !== 'complete') await rm(join(cache.dir, 'tmp', `${entry.id}.part`), { force: true });
  return { entries: mine.length, files };
}
