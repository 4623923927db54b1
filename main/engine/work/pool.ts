// The engine's worker threads: its CPU work (output files from their recipes, retopologies, reading uploaded
// characters; tasks.ts) runs on a pool of them (main/work/pool.ts), off the event loop of the process hosting the
// engine (Electron's main process, the CLI, the web host), which stays free for requests and IPC. See README.md
// "Off the app's thread".
//
// - Size: `defaultPoolSize()` workers, started when first needed; 0 runs every task on the calling thread (the
//   engine's behaviour before the pool, kept for the bench's baseline).
// - Tasks of the same model (`affinity`) go to the worker that made it last, which keeps the model in memory
//   (generate/model-cache.ts keeps the last few): a session's GLB, OBJ, textures, FBX and USDZ are made from
//   one model once, not once per worker.
// - Cancelling, crashes and closing as main/work/pool.ts says: a crash fails its one task with a WorkerCrash
//   ("the engine's worker ran out of memory …"), close() fails the rest with PoolClosed.
import { availableParallelism } from 'node:os';
import { WorkerPool } from '../../work/pool.ts';
import { MODELS_KEPT } from '../generate/model-cache.ts';
import type { ResultOf, Task } from './tasks.ts';

export interface PoolOptions {
  /** Worker threads; 0 = every task on the calling thread. Default defaultPoolSize(). */
  size?: number;
  /** Heap limit of each worker (V8's old generation); a task that needs more crashes its worker. Default 2048. */
  maxOldGenerationSizeMb?: number;
}

/**
 * One worker per core but one, at least 1 and at most 4: the hosting process's own thread (HTTP, IPC, file I/O)
 * and the app's renderer keep a core; each worker holds its own copy of the engine's modules and models (and up
 * to its heap limit), so their number is capped.
 */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** The worker's script: the TypeScript source, or in the Electron bundle (scripts/build.ts) the bundled one beside main.cjs. */
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./worker.ts', import.meta.url)
  : new URL('./engine-worker.cjs', import.meta.url);

export class WorkPool extends WorkerPool<Task, ResultOf> {
  constructor(options: PoolOptions = {}) {
    super({
      script: WORKER_URL,
      name: "the engine's worker",
      size: options.size ?? defaultPoolSize(),
      maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 2048,
      remembered: MODELS_KEPT, // as many as a worker keeps in memory (generate/model-cache.ts)
      runInline: async (task) => (await import('./tasks.ts')).runTask(task),
    });
  }
}
