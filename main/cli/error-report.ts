// What a failed command reports: a line on stderr, and with --json the same error as JSON on stdout
// (`{"error": {"code", "message", "exitCode"}}`), so a pipeline reads one format whatever happens.
// An AppError's code and exit code come from the one table of shared/errors.ts; anything else is unplanned.
import { AppError, ERROR_TABLE, mappingOf } from '../../shared/errors.ts';
import { diskFullOf } from '../durable/disk-full.ts';

export interface CliFailure {
  /**
   * The kind of failure, a lowercase word: the code of an AppError (shared/errors.ts: `usage`, a service
   * call's `request-validation`, `service-response`, `protocol`, `timeout`, `network`, `cancelled`, a file's
   * `wrong-format`, `too-large`, an export's `target-exists`, `connection`, `data-folder`, `wait-timeout`,
   * `submission-unknown`…); for anything else its own code or type when it is a word, `stopped` after
   * Ctrl-C, `internal` otherwise.
   */
  code: string;
  message: string;
  exitCode: number;
}

const WORD = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Errors of the language and of Node itself: a failure nobody planned for. */
const BUILT_IN = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
  'SystemError',
  'DOMException',
]);

export function describeFailure(error: unknown, options: { stopped?: boolean } = {}): CliFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof AppError) return { code: error.code, message, exitCode: mappingOf(error.code).exitCode };
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    kind?: unknown;
  };
  // A full disk no module named: the folder of the file it was writing, when the system error says it.
  const full = diskFullOf(error);
  if (full !== undefined) return describeFailure(full, options);
  if (typeof fields.code === 'string' && fields.code.startsWith('ERR_PARSE_ARGS')) {
    return {
      code: 'usage',
      message: `${message}. Run "asset-studio help" to see the options.`,
      exitCode: ERROR_TABLE.usage.exitCode,
    };
  }
  return { code: codeOf(error, fields, options.stopped === true), message, exitCode: ERROR_TABLE.internal.exitCode };
}

/** The code of an error nobody planned for: its own kind or code when it is a word, else its type. */
function codeOf(error: unknown, fields: { code?: unknown; kind?: unknown }, stopped: boolean): string {
  if (typeof fields.kind === 'string' && WORD.test(fields.kind)) return fields.kind;
  if (typeof fields.code === 'string' && WORD.test(fields.code)) return fields.code;
  if (stopped) return 'stopped';
  const type = error instanceof Error ? error.constructor.name : '';
  if (BUILT_IN.has(type) || !type.endsWith('Error')) return 'internal';
  return type
    .slice(0, -'Error'.length)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

/** The JSON document of a failure, as printed on stdout with --json. */
export function failureJson(failure: CliFailure): string {
  return `${JSON.stringify({ error: failure }, null, 2)}\n`;
}
