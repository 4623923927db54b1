// A worker thread of the engine's pool (pool.ts): runs one task at a time (tasks.ts) and answers its result,
// its bytes transferred, or the error that ended it.
import { parentPort } from 'node:worker_threads';
import { runTask, type Task } from './tasks.ts';

const port = parentPort;
if (port === null) throw new Error('main/engine/work/worker.ts runs as a worker thread of the engine');

port.on('message', async ({ id, task }: { id: number; task: Task }) => {
  const transfer: ArrayBuffer[] = [];
  try {
    const value = await runTask(task, transfer);
    port.postMessage({ id, ok: true, value }, transfer);
  } catch (error) {
    port.postMessage({
      id,
      ok: false,
      error: error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) },
    });
  }
});
