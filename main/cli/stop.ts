// What Ctrl-C and SIGTERM do to a command: the command's interrupt signal aborts at once (a wait says where it
// stopped, the engine closes, a batch stops sending), and a command that has not ended STOP_GRACE_MS later (a
// request to a service that never answers, a body that never ends) is cut short: it ends as `stopped`
// (shared/errors.ts: exit code 1), whatever is in flight. A second signal ends the process at once (main.ts).
import { AppError } from '../../shared/errors.ts';

/** How long a command may take to end by itself after the signal. */
export const STOP_GRACE_MS = 5_000;

/** The command was stopped by a signal before it ended. */
export class StoppedError extends AppError<'stopped'> {
  constructor(signal: string) {
    super(
      'stopped',
      `stopped by ${signal} before the command ended. A create or upload that was being sent may have reached the service: ` +
        '"asset-studio jobs" lists the library, "asset-studio reconcile" settles what is left unknown.',
    );
  }
}

/** The signal's name, as the interrupt's reason carries it (main.ts aborts with it). */
export function signalOf(interrupt: AbortSignal): string {
  return typeof interrupt.reason === 'string' && /^SIG[A-Z]+$/.test(interrupt.reason) ? interrupt.reason : 'Ctrl-C';
}

/**
 * Rejects with a StoppedError `graceMs` after `interrupt` aborts (never before); `cancel` forgets it, so a command
 * that ended keeps no timer alive.
 */
export function stopAfterGrace(
  interrupt: AbortSignal,
  graceMs = STOP_GRACE_MS,
): { stopped: Promise<never>; cancel: () => void } {
  const { promise, reject } = Promise.withResolvers<never>();
  promise.catch(() => undefined); // read by a race; never an unhandled rejection itself
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    timer = setTimeout(() => reject(new StoppedError(signalOf(interrupt))), graceMs);
  };
  if (interrupt.aborted) onAbort();
  else interrupt.addEventListener('abort', onAbort, { once: true });
  return {
    stopped: promise,
    cancel: () => {
      interrupt.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    },
  };
}

/** The error a command ended with after the signal: its own when it says more than that it was cancelled, else `stopped`. */
export function afterInterrupt(error: unknown, interrupt: AbortSignal): unknown {
  if (!interrupt.aborted) return error;
  if (error instanceof StoppedError) return error;
  if (error instanceof AppError && error.code !== 'cancelled') return error;
  return new StoppedError(signalOf(interrupt));
}
