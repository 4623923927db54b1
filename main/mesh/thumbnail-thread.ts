// Draws a model's thumbnail (thumbnail.ts) on a worker thread of its own, so a large model never stalls the
// thread that asked (the desktop app's main process, the web host): its reading and rendering take from a few
// hundred milliseconds to seconds of CPU. The worker's memory is bounded; a worker that fails, runs out of
// memory or exits ends that one render with the reason, never the process.
import { Worker } from 'node:worker_threads';
import type { ThumbnailFormat } from './thumbnail.ts';

// Run from the sources (.ts) the worker is the module beside this one; in the Electron bundle (scripts/build.ts)
// it is thumbnail-worker.cjs beside main.cjs.
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./thumbnail-worker.ts', import.meta.url)
  : new URL('./thumbnail-worker.cjs', import.meta.url);

/** Heap of a thumbnail's worker, MiB: a model of a few million triangles fits; beyond, the render fails, not the app. */
export const THUMBNAIL_WORKER_MB = 768;

export interface DrawnThumbnail {
  png: Buffer;
  /** The worker thread that drew it (never the caller's). */
  threadId: number;
}

/** Draws the model file at `path` as a PNG on a new worker thread; rejects with why when it cannot. */
export function drawModelFileOffThread(
  path: string,
  format: ThumbnailFormat,
  size: number,
  options: { memoryMb?: number } = {},
): Promise<DrawnThumbnail> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { path, format, size },
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb ?? THUMBNAIL_WORKER_MB },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (answer: { ok: true; png: Uint8Array; threadId: number } | { ok: false; message: string }) =>
      settle(() =>
        answer.ok
          ? resolve({
              png: Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength),
              threadId: answer.threadId,
            })
          : reject(new Error(answer.message)),
      ),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          new Error(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `drawing it needed more than ${options.memoryMb ?? THUMBNAIL_WORKER_MB} MiB of memory`
              : error.message,
          ),
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the thumbnail's worker stopped (exit code ${code})`))),
    );
  });
}
