// The cache's files as the download cache sees them: its complete entries grouped by blob (several outputs with the
// same bytes share one), and the files it makes, found for the sweep of orphans.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheEntry } from '../store/cache-entries.ts';
import { isBlobName, isPartName } from './folder.ts';

export interface BlobGroup {
  path: string;
  sha256: string;
  bytes: number;
  lastAccessAt: number;
  entries: CacheEntry[];
}

/** The complete entries by blob: several outputs with the same bytes share one. */
export function groupBlobs(entries: CacheEntry[]): BlobGroup[] {
  const groups = new Map<string, BlobGroup>();
  for (const e of entries) {
    if (e.state !== 'complete' || e.blobPath === null || e.sha256 === null) continue;
    const group = groups.get(e.blobPath);
    if (group === undefined)
      groups.set(e.blobPath, {
        path: e.blobPath,
        sha256: e.sha256,
        bytes: e.size ?? 0,
        lastAccessAt: e.lastAccessAt,
        entries: [e],
      });
    else {
      group.lastAccessAt = Math.max(group.lastAccessAt, e.lastAccessAt);
      group.entries.push(e);
    }
  }
  return [...groups.values()];
}

/** The files the cache makes: `tmp/<entry id>.part` and `blobs/<aa>/<sha256>` (no links, nothing else). */
export async function ownFiles(dir: string): Promise<string[]> {
  const items = (path: string) => readdir(path, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  const tmp = join(dir, 'tmp');
  for (const item of await items(tmp)) if (item.isFile() && isPartName(item.name)) out.push(join(tmp, item.name));
  const blobs = join(dir, 'blobs');
  for (const folder of await items(blobs)) {
    if (!folder.isDirectory()) continue;
    for (const item of await items(join(blobs, folder.name))) {
      if (item.isFile() && isBlobName(folder.name, item.name)) out.push(join(blobs, folder.name, item.name));
    }
  }
  return out;
}
