// The worker's side of a WorkerPool (pool.ts): runs the tasks it is sent, one message each, and answers each
// result (its bytes transferred, as `run` lists them) or the error that ended it, under the message's id.
import { parentPort } from 'node:worker_threads';
import type { KindedTask, WorkerAnswer } from './pool.ts';

/**
 * A copy of the bytes in an ArrayBuffer of its own, listed on `transfer` to be moved to the pool's side (the copy is
 * made here, on the worker). Never the bytes themselves: the worker may keep them (the engine's worker caches a
 * model's textures for the next file of the same model), a Buffer may be a slice of Node's shared pool, and a
 * transferred ArrayBuffer is emptied on the sending side.
 */
export function ownCopy(bytes: Uint8Array, transfer: ArrayBuffer[]): Uint8Array {
  const copy = new Uint8Array(bytes);
  transfer.push(copy.buffer);
  return copy;
}

/** Answers the pool's tasks with `run`, which pushes the ArrayBuffers of its result to move (not copy) onto `transfer`. */
export function serveTasks<T extends KindedTask>(
  script: string,
  run: (task: T, transfer: ArrayBuffer[]) => Promise<unknown>,
): void {
  const port = parentPort;
  if (port === null) throw new Error(`${script} runs as a worker thread of a pool (main/work/pool.ts)`);
  port.on('message', async ({ id, task }: { id: number; task: T }) => {
    const transfer: ArrayBuffer[] = [];
    try {
      const value = await run(task, transfer);
      port.postMessage({ id, ok: true, value } satisfies WorkerAnswer, transfer);
    } catch (error) {
      const failure =
        error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) };
      port.postMessage({ id, ok: false, error: failure } satisfies WorkerAnswer);
    }
  });
}
