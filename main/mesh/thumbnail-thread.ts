// Draws a model's thumbnail (thumbnail.ts) on a worker thread of its own, so a large model never stalls the
// thread that asked (the desktop app's main process, the web host): its reading and rendering take from a few
// hundred milliseconds to seconds of CPU. The worker is a pool of one (main/work/pool.ts): kept while renders
// come (a library asks for many in a row: its modules load once), one render at a time, stopped when idle. Its
// memory is bounded; a worker that fails, runs out of memory or exits fails the render it had with the reason,
// never the process, and the next render gets a new worker.
import { WorkerPool } from '../work/pool.ts';
import type { ThumbnailFormat } from './thumbnail.ts';

// Run from the sources (.ts) the worker is the module beside this one; in the Electron bundle (scripts/build.ts)
// it is thumbnail-worker.cjs beside main.cjs.
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./thumbnail-worker.ts', import.meta.url)
  : new URL('./thumbnail-worker.cjs', import.meta.url);

/** Heap of a thumbnail's worker, MiB: a model of a few million triangles fits; beyond, the render fails, not the app. */
export const THUMBNAIL_WORKER_MB = 768;

/** How long an idle worker is kept for the next thumbnail before it is stopped. */
const IDLE_MS = 20_000;

export interface ThumbnailTask {
  kind: 'thumbnail';
  path: string;
  format: ThumbnailFormat;
  size: number;
}

/** What the worker answers: the PNG's bytes and the thread that drew it. */
export interface ThumbnailResults {
  thumbnail: { png: Uint8Array; threadId: number };
}

export interface DrawnThumbnail {
  png: Buffer;
  /** The worker thread that drew it (never the caller's). */
  threadId: number;
}

/** The pools, one worker each, by their heap limit (MiB). */
const pools = new Map<number, WorkerPool<ThumbnailTask, ThumbnailResults>>();

/**
 * Draws the model file at `path` as a PNG on a worker thread (started on first use, reused for the next ones,
 * stopped when idle); rejects with why when it cannot (a WorkerCrash when the worker ran out of memory or died).
 */
export async function drawModelFileOffThread(
  path: string,
  format: ThumbnailFormat,
  size: number,
  options: { memoryMb?: number } = {},
): Promise<DrawnThumbnail> {
  const memoryMb = options.memoryMb ?? THUMBNAIL_WORKER_MB;
  let pool = pools.get(memoryMb);
  if (pool === undefined) {
    pool = new WorkerPool({
      script: WORKER_URL,
      name: "the thumbnail's worker",
      size: 1,
      maxOldGenerationSizeMb: memoryMb,
      idleMs: IDLE_MS,
    });
    pools.set(memoryMb, pool);
  }
  const { png, threadId } = await pool.run({ kind: 'thumbnail', path, format, size });
  return { png: Buffer.from(png.buffer, png.byteOffset, png.byteLength), threadId };
}
