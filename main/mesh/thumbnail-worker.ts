// The worker thread of thumbnail-thread.ts: draws the model files it is sent, one message each, and answers
// each PNG (transferred) or why not, under the message's id.
import { parentPort, threadId } from 'node:worker_threads';
import { drawModelFile, type ThumbnailFormat } from './thumbnail.ts';

const port = parentPort;
if (port === null) throw new Error('main/mesh/thumbnail-worker.ts runs as a worker thread (thumbnail-thread.ts)');
port.on('message', ({ id, path, format, size }: { id: number; path: string; format: ThumbnailFormat; size: number }) =>
  drawModelFile(path, format, size).then(
    (png) => {
      const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
      port.postMessage({ id, ok: true, png: bytes, threadId }, [bytes.buffer]);
    },
    (error: unknown) =>
      port.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  ),
);
