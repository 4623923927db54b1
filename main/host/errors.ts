// Every failure that crosses the bridge becomes a BridgeError: a code the UI can branch on, a message for
// people (what happened, what to do) reused from the error's own type, field issues when an input or a
// request was refused, and never a secret (every text is redacted with the keys the host knows).
import type { BridgeError } from '../../shared/bridge/contract.ts';
import type { FieldIssue } from '../../shared/contract/issues.ts';
import { ApiError, RequestValidationError } from '../api/errors.ts';
import { redactSecrets } from '../api/redact.ts';
import { DownloadError } from '../cache/downloader.ts';
import { KeyStorageError, ProfileError } from '../config/profiles.ts';
import { SettingsError } from '../config/settings.ts';
import { ExportError } from '../export/index.ts';
import { InspectionError } from '../files/errors.ts';
import { OperationConflictError, SubmissionUnknownError } from '../jobs/submit.ts';
import { DataFolderError, RecordNotFoundError } from '../store/errors.ts';

/** A failure that already is a BridgeError (refused input, unknown id, unsupported on this transport). */
export class BridgeFailure extends Error {
  readonly error: BridgeError;
  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeFailure';
    this.error = error;
  }
}

export function invalidInput(what: string, issues: FieldIssue[]): BridgeFailure {
  const list = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new BridgeFailure({ code: 'invalid-input', message: `${what} was refused: ${list}. Fix these values and try again.`, issues });
}

export function notFound(message: string): BridgeFailure {
  return new BridgeFailure({ code: 'not-found', message });
}

export function unsupported(message: string): BridgeFailure {
  return new BridgeFailure({ code: 'unsupported', message });
}

export function conflict(message: string): BridgeFailure {
  return new BridgeFailure({ code: 'conflict', message });
}

function codeOf(error: unknown): string {
  if (error instanceof RequestValidationError) return 'invalid-input';
  if (error instanceof ApiError) return error.kind === 'service-response' ? 'service-error' : error.kind;
  if (error instanceof SubmissionUnknownError) return 'submission-unknown';
  if (error instanceof OperationConflictError) return 'conflict';
  if (error instanceof InspectionError) return 'file-rejected';
  if (error instanceof ExportError) return `export-${error.code}`;
  if (error instanceof DownloadError) return 'download-failed';
  if (error instanceof KeyStorageError) return 'key-storage';
  if (error instanceof ProfileError || error instanceof SettingsError || error instanceof DataFolderError) return 'invalid-settings';
  if (error instanceof RecordNotFoundError) return 'not-found';
  return 'internal';
}

/** The BridgeError of any thrown value, redacted with `secrets`. */
export function toBridgeError(error: unknown, secrets: readonly string[]): BridgeError {
  const redact = (text: string) => redactSecrets(text, [...secrets]);
  let out: BridgeError;
  if (error instanceof BridgeFailure) out = error.error;
  else {
    const code = codeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    out = {
      code,
      message: code === 'internal' ? `Something went wrong in Asset Studio (${message}). Try again; if it keeps happening, restart the app and report the problem.` : message,
      ...(error instanceof RequestValidationError && { issues: error.issues }),
    };
  }
  return { code: out.code, message: redact(out.message), ...(out.issues && { issues: out.issues.map((i) => ({ path: redact(i.path), message: redact(i.message) })) }) };
}

/** The HTTP status of a BridgeError on the web host. */
export function httpStatusOf(error: BridgeError): number {
  switch (error.code) {
    case 'invalid-input':
    case 'invalid-settings':
      return 400;
    case 'not-found':
      return 404;
    case 'conflict':
    case 'submission-unknown':
    case 'cancelled':
      return 409;
    case 'too-large':
      return 413;
    case 'unsupported':
      return 501;
    case 'service-error':
    case 'protocol':
    case 'network':
    case 'download-failed':
      return 502;
    case 'timeout':
      return 504;
    case 'internal':
      return 500;
    default:
      return 422;
  }
}
