// The content-addressed blob store of the download cache: `<cacheDir>/blobs/<aa>/<sha256>`. A blob enters
// only by an atomic rename of a synced file, so a blob that exists is complete; its name is its hash.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { moveFileDurable } from '../durable/write-file.ts';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The blob's path relative to the cache folder (as stored in `cache_entries.blob_path`). */
export function blobRelativePath(sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new TypeError(`not a hex SHA-256: ${sha256}`);
  return join('blobs', sha256.slice(0, 2), sha256);
}

/** Hex SHA-256 of a file, streamed. */
export async function hashFile(path: string): Promise<string> {
  return (await feedHash(createHash('sha256'), path)).digest('hex');
}

/** Feeds a file's first `length` bytes (all when omitted) into `hash`, streamed. */
export async function feedHash(hash: Hash, path: string, length?: number): Promise<Hash> {
  if (length === 0) return hash;
  for await (const chunk of createReadStream(path, length === undefined ? {} : { end: length - 1 }))
    hash.update(chunk as Buffer);
  return hash;
}

/**
 * Moves a synced, verified file into the store under its hash and syncs the folders, so the blob
 * survives a crash. When the blob is there already (the same bytes under another output, or written by
 * another process on the same data folder this instant), the file is dropped. A rename that fails is
 * checked: a blob of the same size and hash now at the target counts as written.
 */
export async function adoptBlob(cacheDir: string, file: string, sha256: string): Promise<string> {
  const relative = blobRelativePath(sha256);
  const target = join(cacheDir, relative);
  const size = (await stat(file)).size;
  if (await sameBlob(target, size, sha256)) {
    await rm(file, { force: true });
    return relative;
  }
  try {
    await moveFileDurable(file, target); // the blob's folder made 0700 and synced, as the cache folder
  } catch (error) {
    if (!(await sameBlob(target, size, sha256))) throw error;
    await rm(file, { force: true });
  }
  return relative;
}

/** The file at `path` has `size` bytes whose SHA-256 is `sha256`. */
export async function sameBlob(path: string, size: number, sha256: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size !== size) return false;
  return (await hashFile(path).catch(() => undefined)) === sha256;
}
