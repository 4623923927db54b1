// The download cache: every output of a session as a verified, content-addressed blob on disk, found
// again with no network (offline review), kept under a size cap by least-recently-used eviction that
// spares pinned outputs and those in use.
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { formatOf, HEAD_BYTES, type FileFormat } from '../../shared/file-format.ts';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { Store } from '../store/database.ts';
import { DEFAULT_CACHE_FOLDER, type Notice } from '../store/data-folder.ts';
import { hashFile } from './blobs.ts';
import { diskFullDownload, DownloadError, Downloader, urlKey, type DownloaderOptions } from './downloader.ts';
import { groupBlobs, ownFiles, type BlobGroup } from './cache-files.ts';
import { cacheOwnerId, claimCacheFolder, ownsCacheFolder } from './folder.ts';
import { claimPidLock } from '../durable/pid-lock.ts';

/** How many blobs' formats are remembered before the memory starts again (a few hundred bytes each). */
const MAX_KNOWN_FORMATS = 10_000;

export const DEFAULT_CACHE_MAX_BYTES = 10 * 2 ** 30;
/** Leftover files (a crash between two steps) younger than this may belong to a download under way. */
const ORPHAN_AGE_MS = 10 * 60_000;

/** `<dataDir>/cache`. */
export function defaultCacheDir(dataDir: string): string {
  return join(dataDir, DEFAULT_CACHE_FOLDER);
}

export interface CacheOptions {
  store: Store;
  /**
   * Where the cache is kept, e.g. `defaultCacheDir(dataDir)`: that folder when the cache made it, owns it
   * or finds it empty, else a subfolder of it (see folder.ts); `dir` of the cache says which.
   */
  dir: string;
  /** Where the line saying the folder was made private goes (default: standard error). */
  notice?: Notice;
  /** Size cap of the blobs; default 10 GiB. */
  maxBytes?: number;
  /** Session ids whose outputs must stay (jobs on screen, exports in progress); asked at each eviction. */
  inUse?: () => Iterable<string>;
  retry?: DownloaderOptions['retry'];
  checkpointBytes?: number;
  now?: () => number;
}

export interface FetchRequest {
  /** The session code / v3 id at the service. */
  sessionId: string;
  /** The local job, when there is one. */
  jobId?: string | undefined;
  /** Which output: `glb`, `obj`, `image`, `preview_glb`, `prompt:<id>`, ... (see outputs.ts). */
  kind: string;
  url: string;
  /** A fresh URL when the server refuses this one (expired signature): e.g. re-read the job. */
  refreshUrl?: (() => Promise<string | undefined>) | undefined;
  /** The job's label, for messages. */
  label?: string | undefined;
}

export interface CacheProgress {
  sessionId: string;
  kind: string;
  bytes: number;
  total: number | undefined;
}

export interface CacheEvents {
  progress: [CacheProgress];
  downloaded: [CacheEntry];
  failed: [CacheEntry, DownloadError];
  evicted: [CacheEntry];
}

export interface CacheUsage {
  /** Bytes of the distinct blobs (outputs with the same bytes share one). */
  bytes: number;
  blobs: number;
  entries: number;
  pinnedBytes: number;
  /** Bytes of partial downloads kept for a resume. */
  partialBytes: number;
  maxBytes: number;
}

export interface VerifyReport {
  /** Blobs re-hashed. */
  checked: number;
  /** Entries whose blob was missing or damaged: now `failed`, the blob deleted. */
  bad: CacheEntry[];
}

export interface GcReport {
  evicted: CacheEntry[];
  freedBytes: number;
  /** Files of the cache that no entry refers to any more (left by a crash, or replaced), deleted. */
  orphans: number;
}

export class DownloadCache extends EventEmitter<CacheEvents> {
  /** The folder in use: the one asked for, or its subfolder when that folder holds other files. */
  readonly dir: string;
  readonly maxBytes: number;
  readonly #store: Store;
  /** Written in the folder's marker: the sweep runs only in the folder this cache owns. */
  readonly #owner: string;
  readonly #inUse: () => Iterable<string>;
  readonly #now: () => number;
  /** The dispatcher (general-get.ts) of answers the downloader's fast path leaves to undici; made (and undici loaded) on first use. */
  #agent: Promise<Dispatcher> | undefined;
  readonly #downloader: Downloader;
  readonly #inFlight = new Map<string, Promise<string>>();
  readonly #abort = new AbortController();
  /** The format of each blob read so far (formatOf), by blob and URL. */
  readonly #formats = new Map<string, FileFormat>();

  /** Throws CacheFolderError when the folder cannot be used (a file, read-only, no folder of its own there). */
  constructor(options: CacheOptions) {
    super();
    this.#owner = cacheOwnerId(options.store);
    this.dir = claimCacheFolder(options.dir, this.#owner, { notice: options.notice });
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.#store = options.store;
    this.#inUse = options.inUse ?? (() => []);
    this.#now = options.now ?? Date.now;
    this.#downloader = new Downloader({
      dispatcher: () =>
        (this.#agent ??= import('./general-get.ts').then(({ downloadDispatcher }) => downloadDispatcher())),
      ...(options.retry && { retry: options.retry }),
      ...(options.checkpointBytes !== undefined && { checkpointBytes: options.checkpointBytes }),
    });
  }

  /**
   * The path of the output's verified blob, downloaded first unless the cache has it (for this URL
   * without its query string). Two calls for one output share one download. Throws a DownloadError
   * saying which output failed, why and what to do; nothing unverified is ever returned.
   */
  fetchOutput(req: FetchRequest): Promise<string> {
    const key = `${req.sessionId}\n${req.kind}`;
    let download = this.#inFlight.get(key);
    if (download === undefined) {
      download = this.#fetch(req).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, download);
    }
    return download;
  }

  /** The path of the output's blob when the cache has it; no network. Counts as a use (for eviction). */
  open(sessionId: string, kind: string): string | undefined {
    const entry = this.#store.cache.get({ sessionId, kind });
    return entry === undefined ? undefined : this.#use(entry);
  }

  /**
   * The format of a complete entry's file (shared/file-format.ts): its first bytes, else its URL's extension;
   * undefined when neither tells or the blob is gone. Not a use (for eviction).
   */
  formatOf(entry: CacheEntry): FileFormat | undefined {
    // A blob's bytes never change (its name is their SHA-256): its format is read from disk once.
    const key =
      entry.state === 'complete' && entry.blobPath !== null ? `${entry.blobPath}\n${entry.urlKey}` : undefined;
    const known = key === undefined ? undefined : this.#formats.get(key);
    if (known !== undefined) return known;
    let head: Uint8Array | undefined;
    if (entry.state === 'complete' && entry.blobPath !== null) {
      try {
        const fd = openSync(join(this.dir, entry.blobPath), 'r');
        try {
          const buffer = Buffer.alloc(HEAD_BYTES);
          head = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
        } finally {
          closeSync(fd);
        }
      } catch {
        head = undefined; // evicted or removed: the URL may still tell
      }
    }
    const format = formatOf({ url: entry.urlKey, head });
    if (key !== undefined && head !== undefined && format !== undefined) {
      if (this.#formats.size >= MAX_KNOWN_FORMATS) this.#formats.clear();
      this.#formats.set(key, format);
    }
    return format;
  }

  /** Every entry, the most recently used first. */
  list(): CacheEntry[] {
    return this.#store.cache.list();
  }

  /** Pins one output of a session, or every output it has now: pinned outputs are never evicted. */
  pin(sessionId: string, kind?: string): number {
    return this.#store.cache.setPinned(sessionId, kind, true);
  }

  unpin(sessionId: string, kind?: string): number {
    return this.#store.cache.setPinned(sessionId, kind, false);
  }

  usage(): CacheUsage {
    const entries = this.list();
    const blobs = groupBlobs(entries);
    const sum = (list: BlobGroup[]) => list.reduce((n, b) => n + b.bytes, 0);
    return {
      bytes: sum(blobs),
      blobs: blobs.length,
      entries: entries.length,
      pinnedBytes: sum(blobs.filter((b) => b.entries.some((e) => e.pinned))),
      partialBytes: entries.filter((e) => e.state !== 'complete').reduce((n, e) => n + e.bytesDone, 0),
      maxBytes: this.maxBytes,
    };
  }

  /** Re-hashes every blob; a missing or damaged one is deleted and its entries become `failed` (fetched again when next needed). */
  async verify(): Promise<VerifyReport> {
    const bad: CacheEntry[] = [];
    const blobs = groupBlobs(this.list());
    for (const blob of blobs) {
      const sha256 = await hashFile(join(this.dir, blob.path)).catch(() => undefined);
      if (sha256 === blob.sha256) continue;
      const why =
        sha256 === undefined
          ? 'its file is missing'
          : `its bytes changed on disk (SHA-256 ${sha256} instead of ${blob.sha256})`;
      for (const entry of blob.entries) {
        bad.push(
          this.#store.cache.markFailed(
            entry.id,
            `The cached copy of ${describe(entry)} was deleted because ${why}; it is downloaded again when next needed.`,
            0,
          ),
        );
      }
      await rm(join(this.dir, blob.path), { force: true });
    }
    return { checked: blobs.length, bad };
  }

  /**
   * Evicts least-recently-used blobs down to the size cap, and deletes the cache's own files no entry
   * refers to. Nothing else is ever deleted: only names the cache makes, in the folder its marker says it owns.
   */
  async gc(): Promise<GcReport> {
    const report = await this.#evict(new Set());
    return { ...report, orphans: await this.#sweepOrphans() };
  }

  /** Stops the downloads under way (their partial files are kept for a resume) and closes the connections. */
  async close(): Promise<void> {
    this.#abort.abort();
    await Promise.allSettled(this.#inFlight.values());
    if (this.#agent !== undefined) await (await this.#agent).close();
  }

  async #fetch(req: FetchRequest): Promise<string> {
    const cache = this.#store.cache;
    const entry = cache.upsert({
      sessionId: req.sessionId,
      jobId: req.jobId ?? null,
      kind: req.kind,
      urlKey: urlKey(req.url),
      now: this.#now(),
    });
    const cached = this.#use(entry);
    if (cached !== undefined) return cached;
    // Another process on this data folder (the CLI beside the app or the web host) may be fetching the same
    // output: the one holding the entry's lock writes the resumable `<id>.part` and records its progress;
    // any other writes a part file of its own from byte 0 and records nothing but the result.
    const lock = await claimPart(join(this.dir, 'tmp'), entry.id).catch((error: unknown) => {
      throw this.#failed(entry, req, error, entry.bytesDone);
    });
    const partPath = lock.owned ? join(this.dir, 'tmp', `${entry.id}.part`) : lock.ownPart;
    try {
      const blob = await this.#downloader.download({
        label: describe(entry, req.label),
        url: req.url,
        refreshUrl: req.refreshUrl,
        cacheDir: this.dir,
        partPath,
        known: lock.owned
          ? { etag: entry.etag, size: entry.size, sha256: entry.sha256, bytesDone: entry.bytesDone }
          : { etag: entry.etag, size: entry.size, sha256: entry.sha256, bytesDone: 0 },
        onStarted: (file) => {
          if (lock.owned) cache.markStarted(entry.id, file);
        },
        onCheckpoint: (bytesDone) => {
          if (lock.owned) cache.markProgress(entry.id, bytesDone);
        },
        onProgress: (bytes, total) =>
          this.emit('progress', { sessionId: entry.sessionId, kind: entry.kind, bytes, total }),
        signal: this.#abort.signal,
      });
      const done = cache.markComplete(entry.id, { ...blob, now: this.#now() });
      this.emit('downloaded', done);
      await this.#evict(new Set([done.id]));
      return join(this.dir, blob.blobPath);
    } catch (caught) {
      if (!lock.owned) await rm(partPath, { force: true });
      // A full disk anywhere on the way (the lock, the blob's folder, the index) fails this output, in words.
      const error =
        caught instanceof DownloadError
          ? caught
          : (diskFullDownload(caught, this.dir, describe(entry, req.label), 0) ?? caught);
      if (!(error instanceof DownloadError)) throw error;
      if (error.bytesKept === 0) await rm(partPath, { force: true });
      if (!lock.owned) {
        // The lock's holder is still at it: its result, when it has one, is this one's too.
        const now = this.#use(cache.get({ sessionId: entry.sessionId, kind: entry.kind }) ?? entry);
        if (now !== undefined) return now;
      }
      if (error.reason === 'cancelled')
        cache.markProgress(entry.id, error.bytesKept); // stays partial
      else this.#markFailed(entry, error);
      throw error;
    } finally {
      await lock.release();
    }
  }

  /** The DownloadError of a failure before the download (a full disk), the entry marked failed; else the error. */
  #failed(entry: CacheEntry, req: FetchRequest, error: unknown, bytesKept: number): unknown {
    const failure = diskFullDownload(error, this.dir, describe(entry, req.label), bytesKept);
    if (failure === undefined) return error;
    this.#markFailed(entry, failure);
    return failure;
  }

  /**
   * Records the failure (retried when next asked) and tells the listeners. On a full disk the database may not
   * take it either: the failure is still thrown to the caller, which says it.
   */
  #markFailed(entry: CacheEntry, error: DownloadError): void {
    let failed: CacheEntry;
    try {
      failed = this.#store.cache.markFailed(entry.id, error.message, error.bytesKept);
    } catch {
      failed = { ...entry, state: 'failed', error: error.message };
    }
    this.emit('failed', failed, error);
  }

  /** The blob's path if the entry is complete and its file is there; records the use. */
  #use(entry: CacheEntry): string | undefined {
    if (entry.state !== 'complete' || entry.blobPath === null) return undefined;
    const path = join(this.dir, entry.blobPath);
    if (!existsSync(path)) return undefined;
    this.#store.cache.touch(entry.id, this.#now());
    return path;
  }

  /** Least recently used blobs first, skipping pinned, in use, downloading and `keep` entries, until under the cap. */
  async #evict(keep: ReadonlySet<string>): Promise<Omit<GcReport, 'orphans'>> {
    const blobs = groupBlobs(this.list());
    let total = blobs.reduce((n, b) => n + b.bytes, 0);
    const evicted: CacheEntry[] = [];
    let freedBytes = 0;
    if (total <= this.maxBytes) return { evicted, freedBytes };
    const inUse = new Set(this.#inUse());
    const spared = (e: CacheEntry) =>
      e.pinned || inUse.has(e.sessionId) || keep.has(e.id) || this.#inFlight.has(`${e.sessionId}\n${e.kind}`);
    for (const blob of blobs.sort((a, b) => a.lastAccessAt - b.lastAccessAt)) {
      if (total <= this.maxBytes) break;
      if (blob.entries.some(spared)) continue;
      // Rows first: a crash before the file is deleted leaves an orphan for the sweep, never a row without its file.
      for (const entry of blob.entries) this.#store.cache.delete(entry.id);
      await rm(join(this.dir, blob.path), { force: true });
      total -= blob.bytes;
      freedBytes += blob.bytes;
      for (const entry of blob.entries) {
        evicted.push(entry);
        this.emit('evicted', entry);
      }
    }
    return { evicted, freedBytes };
  }

  /**
   * Blobs no complete entry names, and partial files no entry can resume, older than ORPHAN_AGE_MS; only
   * files named as the cache names them (`blobs/<aa>/<sha256>`, `tmp/<entry id>.part`), and only in a
   * folder that holds this cache's marker.
   */
  async #sweepOrphans(): Promise<number> {
    if (!ownsCacheFolder(this.dir, this.#owner)) return 0;
    const entries = this.list();
    const wanted = new Set<string>();
    for (const e of entries) {
      if (e.state === 'complete' && e.blobPath !== null) wanted.add(join(this.dir, e.blobPath));
      else wanted.add(join(this.dir, 'tmp', `${e.id}.part`));
    }
    let removed = 0;
    for (const file of await ownFiles(this.dir)) {
      if (wanted.has(file)) continue;
      const info = await stat(file).catch(() => undefined);
      if (info === undefined || this.#now() - info.mtimeMs < ORPHAN_AGE_MS) continue;
      await rm(file, { force: true });
      removed++;
    }
    return removed;
  }
}

interface PartLock {
  /** True: this process holds `tmp/<entry id>.lock` and writes the resumable `<entry id>.part`. */
  owned: boolean;
  /** The part file of this writer alone (`<entry id>.<pid>-<random>.part`), when it does not hold the lock. */
  ownPart: string;
  release(): Promise<void>;
}

/**
 * Claims the entry's part file for this process with `tmp/<entry id>.lock` (main/durable/pid-lock.ts). A lock
 * whose process is gone (a crash) is taken over; one held by a live process is left to it.
 */
export async function claimPart(tmpDir: string, entryId: string): Promise<PartLock> {
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const ownPart = join(tmpDir, `${entryId}.${process.pid}-${randomBytes(4).toString('hex')}.part`);
  // Held by a live process (another cache of this one included, which is not shared): a part file of its own.
  const lock = await claimPidLock(join(tmpDir, `${entryId}.lock`));
  return lock.held
    ? { owned: true, ownPart, release: lock.release }
    : { owned: false, ownPart, release: async () => undefined };
}

function describe(entry: CacheEntry, label?: string): string {
  return `the ${entry.kind} output of ${label ? `"${label}" (session ${entry.sessionId})` : `session ${entry.sessionId}`}`;
}
