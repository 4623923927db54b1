// The worker thread of thread.ts: makes the game-ready GLBs it is sent, one task at a time, and answers each GLB
// (transferred) with its report.
import { ownCopy, serveTasks } from '../work/serve-tasks.ts';
import { makeGameReady } from './gameready.ts';
import type { GameReadyResults, GameReadyTask } from './thread.ts';

serveTasks<GameReadyTask>('main/gameready/worker.ts', async ({ glb, profile, lods, metallicSmoothness }, transfer) => {
  const made = await makeGameReady(glb, profile, { lods, metallicSmoothness });
  return {
    glb: ownCopy(made.glb, transfer),
    report: made.report,
    ...(made.metallicSmoothness && { metallicSmoothness: ownCopy(made.metallicSmoothness, transfer) }),
  } satisfies GameReadyResults['gameready'];
});
