// An action started from the UI (a button, a form): busy while it runs, and its error to show.
import { useState } from 'preact/hooks';
import { toShownError, type ShownError } from './util.ts';

export function useAction(): {
  busy: boolean;
  error: ShownError | undefined;
  run: (what: () => Promise<unknown>, shown?: (e: unknown) => ShownError) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  /** Runs `what`, busy meanwhile; a failure becomes the error shown (through `shown`), a new run clears it. */
  const run = async (what: () => Promise<unknown>, shown: (e: unknown) => ShownError = toShownError) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
    } catch (e) {
      setError(shown(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
