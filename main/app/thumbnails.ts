// The library's thumbnails: a picture of each finished job, kept in the cache beside its outputs. The
// service's own picture when it has one (an animation's thumbnail or render, a text-to-image's image, a
// retopology's preview); else a render of the cached model (GLB, else OBJ; textured where main/images
// decodes its textures) by the software rasterizer of main/mesh on a worker thread, with no GPU and no
// network, for jobs made by the app or the CLI alike. A render is kept as the session's `thumbnail` output, so
// it is made once: a library of 1,000 jobs is never re-rendered, and it is served, evicted and deleted with the
// session's other files.
import { formatOutputKind } from '../../shared/output-kind.ts';
import { animatedFormatOf } from '../../shared/file-format.ts';
import { jobModel } from '../../shared/kinds/job-model.ts';
import { keepLocalOutput, localSource } from '../cache/local-output.ts';
import type { DownloadCache } from '../cache/download-cache.ts';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import { drawModelFileOffThread } from '../mesh/thumbnail-thread.ts';

/** The key a render is kept under (the service's own thumbnail output, when a session has one, wins). */
export const THUMBNAIL_KIND = formatOutputKind({ type: 'thumbnail' });
/** Width and height of a rendered thumbnail, pixels (the library shows it at 64-96 px, sharp on a 2× screen). */
export const THUMBNAIL_SIZE = 192;

/** Pictures that stand for the whole job, best first: a thumbnail, a text-to-image's image, a render, a retopology's preview. */
const PICTURES: readonly string[] = [
  THUMBNAIL_KIND,
  formatOutputKind({ type: 'image' }),
  formatOutputKind({ type: 'render' }),
  formatOutputKind({ type: 'retopology', file: 'image', index: 0 }),
];
/** Shown while a session has nothing better (the older flow before its preview): its first spin view. */
const FALLBACK = formatOutputKind({ type: 'spin', index: 0 });

export interface ThumbnailAnswer {
  /** The cache entry of the picture to show; undefined when there is none (`reason` says why). */
  entry: CacheEntry | undefined;
  reason: string | null;
}

/**
 * The job's picture already in the cache (no render, no file access): what the library list shows at once.
 * A render of a model that a better one has since joined (the older flow's preview, then its refined mesh)
 * is out of date: none is returned, so the next jobs.thumbnail draws the better one.
 */
export function cachedPicture(store: Store, sessionId: string | null): CacheEntry | undefined {
  if (sessionId === null) return undefined;
  const entries = store.cache.listSession(sessionId);
  for (const kind of PICTURES) {
    const entry = entries.find((e) => e.kind === kind && e.state === 'complete');
    if (entry === undefined) continue;
    const source = localSource(entry.urlKey);
    const best = source === undefined ? undefined : modelToRender(entries);
    if (best !== undefined && best.entry.kind !== source) return undefined;
    return entry;
  }
  return undefined;
}

/** The cached model to render: the job's model (shared/kinds/job-model.ts) among those this renderer reads, GLB and OBJ. */
export function modelToRender(
  entries: readonly CacheEntry[],
): { entry: CacheEntry; format: 'glb' | 'obj' } | undefined {
  const best = jobModel(
    entries.filter((e) => e.state === 'complete'),
    { formats: RENDERED, animatedFormat: (e) => animatedFormatOf({ url: e.urlKey }) },
  );
  return best && { entry: best.output, format: best.format as 'glb' | 'obj' };
}

const RENDERED = ['glb', 'obj'] as const;

/**
 * A PNG of the model file at `path` from the front three-quarter view the viewer opens on, in its materials'
 * colours, drawn on a worker thread (main/mesh/thumbnail-thread.ts): never on the app's own thread.
 */
export async function renderModelThumbnail(
  path: string,
  format: 'glb' | 'obj',
  size = THUMBNAIL_SIZE,
): Promise<Buffer> {
  return (await drawModelFileOffThread(path, format, size)).png;
}

const made = new WeakMap<DownloadCache, Thumbnails>();

/** Waits until the renders asked of a cache's thumbnails have ended (its services close: no worker is left mid-render). */
export async function thumbnailsSettled(cache: DownloadCache): Promise<void> {
  await made.get(cache)?.settled();
}

/** The thumbnails of a cache (one queue per cache, so per connection's services). */
export function thumbnailsOf(cache: DownloadCache, store: Store): Thumbnails {
  let thumbnails = made.get(cache);
  if (thumbnails === undefined) made.set(cache, (thumbnails = new Thumbnails(cache, store)));
  return thumbnails;
}

/** Makes the thumbnails the library asks for: one render at a time (each is a few hundred ms of CPU), each session once. */
export class Thumbnails {
  readonly #cache: DownloadCache;
  readonly #store: Store;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #pending = new Map<string, Promise<ThumbnailAnswer>>();

  constructor(cache: DownloadCache, store: Store) {
    this.#cache = cache;
    this.#store = store;
  }

  /** Resolves when every render asked so far has ended. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending.values()]);
  }

  /** The job's picture: the one cached, or a render of its cached model made now and kept. Never throws. */
  ensure(job: JobRecord): Promise<ThumbnailAnswer> {
    const sessionId = job.remoteId;
    if (sessionId === null)
      return Promise.resolve({
        entry: undefined,
        reason: 'It was not created at the service (its submission is unknown), so it has no files.',
      });
    const cached = cachedPicture(this.#store, sessionId);
    if (cached !== undefined) return Promise.resolve({ entry: cached, reason: null });
    let answer = this.#pending.get(sessionId);
    if (answer === undefined) {
      answer = this.#render(job, sessionId).finally(() => this.#pending.delete(sessionId));
      this.#pending.set(sessionId, answer);
    }
    return answer;
  }

  async #render(job: JobRecord, sessionId: string): Promise<ThumbnailAnswer> {
    const entries = this.#store.cache.listSession(sessionId);
    const model = modelToRender(entries);
    const fallback = entries.find((e) => e.kind === FALLBACK && e.state === 'complete');
    if (model === undefined) {
      const reason =
        job.state !== 'succeeded'
          ? `It is ${job.rawStatus || job.state}: a picture is made when it has finished.`
          : entries.length === 0
            ? 'Its files are not cached yet: they are downloaded when it finishes (or from its page).'
            : 'None of its cached files is a picture or a model (GLB or OBJ).';
      return { entry: fallback, reason: fallback ? null : reason };
    }
    const path = this.#cache.open(sessionId, model.entry.kind);
    if (path === undefined)
      return {
        entry: fallback,
        reason: fallback
          ? null
          : `Its ${model.entry.kind} file is no longer in the cache: download its files again from its page.`,
      };
    const run = this.#queue.then(async () => {
      const png = await renderModelThumbnail(path, model.format);
      return keepLocalOutput(this.#cache, this.#store, {
        sessionId,
        jobId: job.id,
        kind: THUMBNAIL_KIND,
        bytes: png,
        source: model.entry.kind,
      });
    });
    this.#queue = run.catch(() => undefined);
    try {
      return { entry: await run, reason: null };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        entry: fallback,
        reason: fallback
          ? null
          : `Its ${model.entry.kind} file could not be drawn (${why}). Open it in the viewer to check it.`,
      };
    }
  }
}
