// The one error type of the export: which file or folder, what is wrong with it, and what to do.
// Its codes are listed in shared/errors.ts.
import { AppError, type ExportErrorCode } from '../../shared/errors.ts';

export type { ExportErrorCode } from '../../shared/errors.ts';

export class ExportError extends AppError<ExportErrorCode> {
  /** The file or folder concerned. */
  readonly file: string;
  readonly why: string;
  readonly fix: string;

  constructor(code: ExportErrorCode, f: { file: string; why: string; fix: string; cause?: unknown }) {
    super(code, `${f.file}: ${f.why}. ${f.fix}`, { cause: f.cause });
    this.file = f.file;
    this.why = f.why;
    this.fix = f.fix;
  }
}

/** The message of any thrown value, for embedding in a sentence. */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Wraps a file-system failure in an ExportError that names the file; an ExportError passes through. */
export function ioError(file: string, doing: string, error: unknown): ExportError {
  if (error instanceof ExportError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const fix =
    code === 'EACCES' || code === 'EPERM' || code === 'EBUSY'
      ? 'Check the permissions, close programs that hold files there open (an engine editor may), and try again'
      : code === 'ENOSPC'
        ? 'Free some disk space and try again'
        : 'Check the folder and try again';
  return new ExportError('io', { file, why: `${doing} failed (${reason(error)})`, fix, cause: error });
}
