// The embedded engine's one public entry: everything outside main/engine/ imports from this file only
// (test/main-boundaries.test.ts fails otherwise). It loads light: the engine itself (its HTTP server,
// generators, readers and worker pool, Babylon.js included) is imported when `startLocalEngine` runs, so a
// process connected to a real service never loads it.
import type { LocalEngineOptions, RunningLocalEngine } from './engine.ts';

export { engineCostOf } from './credits.ts';
export type { FaultController, FaultRule, LocalEngineOptions, RunningLocalEngine } from './engine.ts';
export { LocalEngineBusyError } from './lock.ts';

/** Starts the embedded engine (see engine.ts); the first call loads its code. */
export async function startLocalEngine(options: LocalEngineOptions): Promise<RunningLocalEngine> {
  const engine = await import('./engine.ts');
  return engine.startLocalEngine(options);
}
