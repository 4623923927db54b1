// Saying plainly that the local engine is a stand-in: a badge on the results it made (whatever the app is
// connected to now) and a line on the create forms while the app is connected to it.
import type { JobView } from '../../../shared/bridge/contract.ts';
import { PUBLIC_SERVICE_NAME } from '../../../shared/public-service.ts';
import { appState } from '../app-state.ts';
import { madeByLocalEngine } from '../job-origin.ts';
import { useStore } from '../store.ts';

export const LOCAL_ENGINE_BADGE = 'Local engine — procedural stand-in';
export const LOCAL_ENGINE_LINE =
  "The local engine makes a geometric stand-in from your picture/prompt, not the service's AI.";

/** Is the app connected to the embedded local engine? */
export function useLocalEngine(): boolean {
  return useStore(appState).info?.connection.mode === 'local-engine';
}

/**
 * On a job's results (the job view, library rows) made by the local engine. A job of unknown origin (recorded
 * before origins were) gets it while the app is connected to the local engine.
 */
export function LocalEngineBadge({ origin }: { origin: JobView['origin'] | undefined }) {
  const mode = useStore(appState).info?.connection.mode;
  if (!madeByLocalEngine(origin, mode)) return null;
  return (
    <span class="local-engine-badge" data-local-engine-badge title={LOCAL_ENGINE_LINE}>
      {LOCAL_ENGINE_BADGE}
    </span>
  );
}

/** On the create forms while connected to the local engine, with the way to the service's results. */
export function LocalEngineLine() {
  if (!useLocalEngine()) return null;
  return (
    <>
      <p class="hint local-engine-line" data-local-engine-line>
        {LOCAL_ENGINE_LINE}
      </p>
      <p class="hint" data-real-results>
        For the service's results, paste an API key of {PUBLIC_SERVICE_NAME} in <a href="#/settings">Settings</a>{' '}
        (generations cost credits).
      </p>
    </>
  );
}
