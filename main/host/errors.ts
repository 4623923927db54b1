// Every failure that crosses the bridge becomes a BridgeError: the code the UI can branch on (from the one
// table of shared/errors.ts), a message for people (what happened, what to do) reused from the error itself,
// field issues when an input or a request was refused, and never a secret (every text is redacted with the
// keys the host knows). Anything that is not an AppError is a bug: `internal`, with its message wrapped.
import type { BridgeError } from '../../shared/bridge/contract.ts';
import { AppError, httpStatusOfBridgeCode, mappingOf } from '../../shared/errors.ts';
import { redactSecrets } from '../api/redact.ts';

export { conflict, invalidInput, notFound, unsupported } from '../../shared/errors.ts';

/** A failure that already is a BridgeError (thrown by BridgeService.call, redacted). */
export class BridgeFailure extends Error {
  readonly error: BridgeError;
  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeFailure';
    this.error = error;
  }
}

/** The BridgeError of any thrown value, redacted with `secrets`. */
export function toBridgeError(error: unknown, secrets: readonly string[]): BridgeError {
  const redact = (text: string) => redactSecrets(text, [...secrets]);
  let out: BridgeError;
  if (error instanceof BridgeFailure) out = error.error;
  else {
    const code = error instanceof AppError ? mappingOf(error.code).bridgeCode : 'internal';
    const message = error instanceof Error ? error.message : String(error);
    out = {
      code,
      message:
        code === 'internal'
          ? `Something went wrong in Asset Studio (${message}). Try again; if it keeps happening, restart the app and report the problem.`
          : message,
      ...(error instanceof AppError && error.issues && { issues: error.issues }),
    };
  }
  return {
    code: out.code,
    message: redact(out.message),
    ...(out.issues && { issues: out.issues.map((i) => ({ path: redact(i.path), message: redact(i.message) })) }),
  };
}

/** The HTTP status of a BridgeError on the web host (shared/errors.ts). */
export function httpStatusOf(error: BridgeError): number {
  return httpStatusOfBridgeCode(error.code);
}
