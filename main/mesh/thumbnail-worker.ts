// The worker thread of thumbnail-thread.ts: draws the model files it is sent, one task at a time, and answers
// each PNG (transferred) and the thread that drew it.
import { threadId } from 'node:worker_threads';
import { ownCopy, serveTasks } from '../work/serve-tasks.ts';
import { drawModelFile } from './thumbnail.ts';
import type { ThumbnailResults, ThumbnailTask } from './thumbnail-thread.ts';

serveTasks<ThumbnailTask>('main/mesh/thumbnail-worker.ts', async ({ path, format, size }, transfer) => {
  const png = ownCopy(await drawModelFile(path, format, size), transfer);
  return { png, threadId } satisfies ThumbnailResults['thumbnail'];
});
