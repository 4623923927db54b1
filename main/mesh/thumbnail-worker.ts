// The worker thread of thumbnail-thread.ts: draws one model file and answers its PNG (transferred) or why not.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { drawModelFile, type ThumbnailFormat } from './thumbnail.ts';

const port = parentPort;
if (port === null) throw new Error('main/mesh/thumbnail-worker.ts runs as a worker thread (thumbnail-thread.ts)');
const { path, format, size } = workerData as { path: string; format: ThumbnailFormat; size: number };
drawModelFile(path, format, size).then(
  (png) => {
    const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
    port.postMessage({ ok: true, png: bytes, threadId }, [bytes.buffer]);
  },
  (error: unknown) => port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) }),
);
