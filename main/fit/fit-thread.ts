// Measures a model file's engine-fit facts on a worker thread (a pool of one of main/work/pool.ts, stopped when
// idle): reading a GLB of a million triangles and walking its triangles takes seconds of CPU, which never run on
// the app's event loop. A worker that fails or runs out of memory fails that one check with why.
import { WorkerPool } from '../work/pool.ts';
import type { ModelFacts } from './model-facts.ts';

// From the sources the worker is the module beside this one; in a bundle, fit-worker.cjs beside it.
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./fit-worker.ts', import.meta.url)
  : new URL('./fit-worker.cjs', import.meta.url);

export interface FactsTask {
  kind: 'facts';
  path: string;
}

export interface FactsResults {
  facts: ModelFacts;
}

let pool: WorkerPool<FactsTask, FactsResults> | undefined;

/** The facts of the GLB at `path`, measured off the calling thread. */
export function modelFactsOffThread(path: string, signal?: AbortSignal): Promise<ModelFacts> {
  pool ??= new WorkerPool({
    script: WORKER_URL,
    name: "the fit check's worker",
    size: 1,
    maxOldGenerationSizeMb: 1024,
    idleMs: 20_000,
  });
  return pool.run({ kind: 'facts', path }, { signal });
}
