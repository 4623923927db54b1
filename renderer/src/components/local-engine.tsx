// Saying plainly that the local engine is a stand-in: a badge on its results and a line on the create forms,
// shown while the app is connected to the embedded local engine (not the service).
import { appState } from '../app-state.ts';
import { useStore } from '../store.ts';

export const LOCAL_ENGINE_BADGE = 'Local engine — procedural stand-in';
export const LOCAL_ENGINE_LINE = "The local engine makes a geometric stand-in from your picture/prompt, not the service's AI.";

/** Is the app connected to the embedded local engine? */
export function useLocalEngine(): boolean {
  return useStore(appState).info?.connection.mode === 'local-engine';
}

/** On a job's results (the job view, library rows) while connected to the local engine. */
export function LocalEngineBadge() {
  if (!useLocalEngine()) return null;
  return (
    <span class="local-engine-badge" data-local-engine-badge title={LOCAL_ENGINE_LINE}>
      {LOCAL_ENGINE_BADGE}
    </span>
  );
}

/** On the create forms while connected to the local engine. */
export function LocalEngineLine() {
  if (!useLocalEngine()) return null;
  return (
    <p class="hint local-engine-line" data-local-engine-line>
      {LOCAL_ENGINE_LINE}
    </p>
  );
}
