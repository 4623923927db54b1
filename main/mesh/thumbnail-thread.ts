// Draws a model's thumbnail (thumbnail.ts) on a worker thread of its own, so a large model never stalls the
// thread that asked (the desktop app's main process, the web host): its reading and rendering take from a few
// hundred milliseconds to seconds of CPU. The worker is kept while renders come (a library asks for many in a
// row: its modules load once) and stopped when idle. Its memory is bounded; a worker that fails, runs out of
// memory or exits ends the renders it had with the reason, never the process.
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

type Answer = { id: number } & ({ ok: true; png: Uint8Array; threadId: number } | { ok: false; message: string });

/** A worker drawing thumbnails, kept while it has work and a little after (a library asks for many in a row). */
interface Drawer {
  worker: Worker;
  pending: Map<number, { resolve: (drawn: DrawnThumbnail) => void; reject: (error: Error) => void }>;
  idle: ReturnType<typeof setTimeout> | undefined;
}

/** How long an idle worker is kept for the next thumbnail before it is stopped. */
const IDLE_MS = 20_000;
/** The live workers, by their heap limit (MiB). */
const drawers = new Map<number, Drawer>();
let nextId = 0;

/**
 * Draws the model file at `path` as a PNG on a worker thread (started on first use, reused for the next ones,
 * stopped when idle); rejects with why when it cannot. A worker that fails (out of memory, a crash) fails the
 * renders it had and is replaced by the next call.
 */
export function drawModelFileOffThread(
  path: string,
  format: ThumbnailFormat,
  size: number,
  options: { memoryMb?: number } = {},
): Promise<DrawnThumbnail> {
  const drawer = drawerFor(options.memoryMb ?? THUMBNAIL_WORKER_MB);
  clearTimeout(drawer.idle);
  drawer.worker.ref(); // a render under way keeps the process alive until it answers
  const id = nextId++;
  return new Promise((resolve, reject) => {
    drawer.pending.set(id, { resolve, reject });
    drawer.worker.postMessage({ id, path, format, size });
  });
}

function drawerFor(memoryMb: number): Drawer {
  const live = drawers.get(memoryMb);
  if (live) return live;
  const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
  const drawer: Drawer = { worker, pending: new Map(), idle: undefined };
  drawers.set(memoryMb, drawer);
  worker.on('message', (answer: Answer) => {
    const waiting = drawer.pending.get(answer.id);
    drawer.pending.delete(answer.id);
    if (answer.ok)
      waiting?.resolve({
        png: Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength),
        threadId: answer.threadId,
      });
    else waiting?.reject(new Error(answer.message));
    if (drawer.pending.size > 0) return;
    worker.unref();
    drawer.idle = setTimeout(() => stop(memoryMb, drawer), IDLE_MS);
    drawer.idle.unref();
  });
  const fail = (error: Error) => {
    stop(memoryMb, drawer);
    for (const { reject } of drawer.pending.values()) reject(error);
    drawer.pending.clear();
  };
  worker.once('error', (error: Error & { code?: string }) =>
    fail(
      new Error(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `drawing it needed more than ${memoryMb} MiB of memory`
          : error.message,
      ),
    ),
  );
  worker.once('exit', (code) => fail(new Error(`the thumbnail's worker stopped (exit code ${code})`)));
  return drawer;
}

function stop(memoryMb: number, drawer: Drawer): void {
  clearTimeout(drawer.idle);
  if (drawers.get(memoryMb) === drawer) drawers.delete(memoryMb);
  void drawer.worker.terminate();
}
