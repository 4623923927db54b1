// makeGameReady (gameready.ts) on a worker thread of its own, so simplifying a million triangles and resizing
// 4K maps never stalls the thread that asked (the app's main process, the web host, the CLI's progress): a pool
// of one worker (main/work/pool.ts), kept while tasks come, stopped when idle; its heap is bounded, and a worker
// that fails fails the one task with the reason, never the process.
import type { TargetProfile } from '../../shared/target-profiles.ts';
import { WorkerPool } from '../work/pool.ts';
import type { GameReady, GameReadyOptions } from './gameready.ts';

// Run from the sources (.ts) the worker is the module beside this one; in a bundle (scripts/node-bundle.ts) it is
// gameready-worker.cjs beside the bundle's entry.
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./worker.ts', import.meta.url)
  : new URL('./gameready-worker.cjs', import.meta.url);

/** Heap of the worker, MiB: a model of a few million triangles and its 4K maps fit. */
export const GAMEREADY_WORKER_MB = 3072;
const IDLE_MS = 20_000;

export interface GameReadyTask {
  kind: 'gameready';
  glb: Uint8Array;
  profile: TargetProfile;
  lods: boolean;
  metallicSmoothness: boolean;
}

export interface GameReadyResults {
  gameready: GameReady;
}

let pool: WorkerPool<GameReadyTask, GameReadyResults> | undefined;

/** makeGameReady on the worker thread; rejects with why (a WorkerCrash when the worker died or ran out of memory). */
export async function makeGameReadyOffThread(
  glb: Uint8Array,
  profile: TargetProfile,
  options: GameReadyOptions,
  signal?: AbortSignal,
): Promise<GameReady> {
  pool ??= new WorkerPool({
    script: WORKER_URL,
    name: "the game-ready export's worker",
    size: 1,
    maxOldGenerationSizeMb: GAMEREADY_WORKER_MB,
    idleMs: IDLE_MS,
  });
  const made = await pool.run(
    { kind: 'gameready', glb, profile, lods: options.lods, metallicSmoothness: options.metallicSmoothness === true },
    { signal },
  );
  return made;
}

/** Stops the worker (tests, shutdown); the next task starts another. */
export async function closeGameReadyThread(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
