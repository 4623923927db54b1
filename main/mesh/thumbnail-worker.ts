// The worker thread of thumbnail-thread.ts: draws the model files it is sent, one task at a time, and answers
// each PNG (transferred) and the thread that drew it.
import { threadId } from 'node:worker_threads';
import { serveTasks } from '../work/serve-tasks.ts';
import { drawModelFile } from './thumbnail.ts';
import type { ThumbnailResults, ThumbnailTask } from './thumbnail-thread.ts';

serveTasks<ThumbnailTask>('main/mesh/thumbnail-worker.ts', async ({ path, format, size }, transfer) => {
  const png = await drawModelFile(path, format, size);
  const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
  transfer.push(bytes.buffer);
  return { png: bytes, threadId } satisfies ThumbnailResults['thumbnail'];
});
