// Was a job made by the embedded local engine (a procedural stand-in)? Its recorded origin says; a job of
// unknown origin (recorded before origins were) is taken to be the current connection's.
import type { JobView } from '../../shared/bridge/contract.ts';

export function madeByLocalEngine(
  origin: JobView['origin'] | undefined,
  connectionMode: 'service' | 'local-engine' | undefined,
): boolean {
  return origin === 'local-engine' || (origin == null && connectionMode === 'local-engine');
}
