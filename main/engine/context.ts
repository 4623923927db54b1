// What the session modules share: the live state and its persistence, the files, the clock.
import type { FaultController } from './faults.ts';
import type { FileStore } from './file-store.ts';
import type { InputReader } from './inputs.ts';
import type { Clock } from './progress.ts';
import type { RetopologyRunner } from './retopology/runner.ts';
import type { EngineState } from './state.ts';

export interface EngineContext {
  state: EngineState;
  /**
   * Persists the changes (one transaction); call after every change before answering, naming the records changed
   * (or objects inside them) that were not inserted into a table since the last save (see state.ts).
   */
  save(...changed: object[]): Promise<void>;
  files: FileStore;
  /** Reads the inputs of sessions (URLs fetched, bytes checked) in the background. */
  inputs: InputReader;
  /** Runs the retopology of a session once its input is read, one at a time, in the background. */
  retopologies: RetopologyRunner;
  clock: Clock;
  /** Credits of an account that has not spent any yet. */
  initialCredits: number;
  /** What happens to an image uploaded as a data URI before it is hosted (see LocalEngineOptions). */
  uploadedImages: 'as-sent' | 'recompressed';
  /** The explicit fault rules; the session ones decide which session steps fail (see sessions/faults.ts). */
  faults: FaultController;
  /** The format of an uploaded character's animated files (see LocalEngineOptions.animationFiles). */
  animationFiles?: 'glb' | 'fbx';
}
