// The one base of Asset Studio's errors and the one table that says what each error code means to each
// front end: the code the bridge sends the UI, the exit code of the CLI and the HTTP status of the web host.
// A domain error carries a code (and a message for people: what is wrong, with what, and what to do);
// never an exit code or a status of its own. Errors that are not AppErrors are bugs: `internal`.
import type { FieldIssue } from './contract/issues.ts';

/**
 * Exit codes of the CLI: 0 done, 1 other failure or stopped (also cancelled through a signal), 2 bad usage
 * or a request rejected before sending, 3 the service answered with an error (or a job failed or was
 * lost), 4 timeout, 5 network, 6 the engine-fit check found an error-level finding (`asset-studio check`).
 */
export type ExitCode = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface ErrorMapping {
  /** The `code` of the BridgeError the UI receives (shared/bridge/contract.ts). */
  bridgeCode: string;
  exitCode: ExitCode;
  /** The status the web host answers a command with. */
  httpStatus: number;
}

/** Why a local file cannot be sent (main/files). */
export const INSPECTION_CODES = [
  'unreadable',
  'not-a-file',
  'empty',
  'too-large',
  'wrong-format',
  'truncated',
  'zip-damaged',
  'zip-unsupported',
  'zip-no-fbx',
  'zip-unsafe-path',
  'zip-symlink',
  'zip-encrypted',
  'zip-too-many-entries',
  'zip-bomb',
  'image-too-large',
] as const;
export type InspectionCode = (typeof INSPECTION_CODES)[number];

/** Why an export into a game project failed (main/export). */
export const EXPORT_ERROR_CODES = [
  'bad-name',
  'bad-input',
  'source-missing',
  'not-a-project',
  'ambiguous-project',
  'outside-project',
  'target-exists',
  'nothing-to-export',
  'unreadable-glb',
  'unsupported-glb',
  'bad-manifest',
  'io',
  'bad-format',
] as const;
export type ExportErrorCode = (typeof EXPORT_ERROR_CODES)[number];

const map = (bridgeCode: string, exitCode: ExitCode, httpStatus: number): ErrorMapping => ({
  bridgeCode,
  exitCode,
  httpStatus,
});
const INVALID = map('invalid-input', 2, 400);
const SETTINGS = map('invalid-settings', 2, 400);
const INTERNAL = map('internal', 1, 500);

const GENERAL = {
  // Refused before anything was sent.
  usage: INVALID,
  'invalid-input': INVALID,
  'request-validation': INVALID,
  'not-found': map('not-found', 2, 404),
  'unknown-operation': map('not-found', 2, 404),
  conflict: map('conflict', 2, 409),
  'operation-conflict': map('conflict', 2, 409),
  unsupported: map('unsupported', 2, 501),
  'upload-too-large': map('too-large', 2, 413),
  'input-too-large': map('too-large', 2, 413),
  'insufficient-credits': map('insufficient-credits', 2, 402),
  // Settings, folders and keys.
  settings: SETTINGS,
  connection: SETTINGS,
  'data-folder': SETTINGS,
  'cache-folder': SETTINGS,
  profile: map('invalid-settings', 1, 400),
  'key-storage': map('key-storage', 1, 422),
  // The service, and following what it does.
  'service-response': map('service-error', 3, 502),
  protocol: map('protocol', 3, 502),
  'submission-unknown': map('submission-unknown', 3, 409),
  timeout: map('timeout', 4, 504),
  'wait-timeout': map('timeout', 4, 504),
  network: map('network', 5, 502),
  cancelled: map('cancelled', 1, 409),
  // Ctrl-C or SIGTERM ended a CLI command before it ended by itself (main/cli/stop.ts).
  stopped: map('cancelled', 1, 409),
  download: map('download-failed', 1, 502),
  // A disk (or the user's quota) is full: that one action failed, nothing else; 507 Insufficient Storage.
  'disk-full': map('disk-full', 1, 507),
  // The local database: damaged, too new, or a bug.
  'database-too-new': INTERNAL,
  // Its own code, so the UI shows its words (the file, where it is kept, `asset-studio doctor`) as they are.
  'database-corrupt': map('database-corrupt', 1, 500),
  // Another process (or a program holding the file) keeps it locked past the wait: try again once it is closed.
  'database-locked': map('database-locked', 1, 503),
  'duplicate-operation': INTERNAL,
  'journal-state': INTERNAL,
  'record-not-found': map('not-found', 1, 404),
  // The engine-fit check (main/fit): a job with no model to check, and a model that does not fit its profile.
  'nothing-to-check': map('nothing-to-check', 2, 422),
  'check-failed': map('check-failed', 6, 422),
  internal: INTERNAL,
} as const satisfies Record<string, ErrorMapping>;

export type ErrorCode = keyof typeof GENERAL | InspectionCode | ExportErrorCode;

/** Every code: what it is to the bridge, the CLI and the web host. */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorMapping>> = {
  ...GENERAL,
  ...(Object.fromEntries(INSPECTION_CODES.map((c) => [c, map('file-rejected', 2, 422)])) as Record<
    InspectionCode,
    ErrorMapping
  >),
  ...(Object.fromEntries(EXPORT_ERROR_CODES.map((c) => [c, map(`export-${c}`, 1, 422)])) as Record<
    ExportErrorCode,
    ErrorMapping
  >),
  // A format the engine cannot import, or the result does not have, and options that name what is not there
  // (clips the job does not have, bad transforms): refused before anything is written, like a bad option.
  'bad-format': map('export-bad-format', 2, 422),
  'bad-input': map('export-bad-input', 2, 422),
};

/** What an error code means to the bridge, the CLI and the web host. */
export function mappingOf(code: ErrorCode): ErrorMapping {
  return ERROR_TABLE[code];
}

/** The HTTP status of a bridge code (each bridge code has one); 422 for one the table does not know. */
export function httpStatusOfBridgeCode(bridgeCode: string): number {
  return HTTP_BY_BRIDGE_CODE.get(bridgeCode) ?? 422;
}

const HTTP_BY_BRIDGE_CODE = new Map(Object.values(ERROR_TABLE).map((m) => [m.bridgeCode, m.httpStatus]));

export interface AppErrorOptions {
  cause?: unknown;
  /** Field issues of a refused input or request. */
  issues?: FieldIssue[];
}

/** An error Asset Studio expects: its code says what it is to every front end (ERROR_TABLE). */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** Set only when there are field issues (no own property otherwise). */
  declare readonly issues?: FieldIssue[];

  constructor(code: C, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    if (options.issues !== undefined)
      Object.defineProperty(this, 'issues', { value: options.issues, enumerable: true });
  }

  /** The CLI's exit code, from the table. */
  get exitCode(): ExitCode {
    return mappingOf(this.code).exitCode;
  }
}

/** The system error codes that mean a disk, or the user's quota on it, is full. */
export const DISK_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

/**
 * A write failed because the disk holding `folder` (or the user's quota there) is full. Only the action that
 * wrote fails; everything else goes on. The message names the folder, what could not be written and what to free.
 * Made from a system or SQLite error by main/durable/disk-full.ts (`asDiskFull`).
 */
export class DiskFullError extends AppError<'disk-full'> {
  readonly folder: string;

  /** `what`: what could not be written, e.g. `the local database` or `the GLB of session S`. */
  constructor(folder: string, what: string, cause?: unknown) {
    super(
      'disk-full',
      `The disk holding ${folder} is full: ${what} could not be written. Free some space on that disk ` +
        '(delete files you no longer need there, or jobs of the library you no longer need, with their cached files), then try again.',
      { cause },
    );
    this.folder = folder;
  }
}

/** An input refused, naming each field: `<what> was refused: <field>: <rule>. Fix these values and try again.` */
export function invalidInput(what: string, issues: FieldIssue[]): AppError<'invalid-input'> {
  const list = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new AppError('invalid-input', `${what} was refused: ${list}. Fix these values and try again.`, { issues });
}

export function notFound(message: string): AppError<'not-found'> {
  return new AppError('not-found', message);
}

export function conflict(message: string): AppError<'conflict'> {
  return new AppError('conflict', message);
}

export function unsupported(message: string): AppError<'unsupported'> {
  return new AppError('unsupported', message);
}
