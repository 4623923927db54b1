// Typed errors of the local database. Each message says what happened and what the user can do.
import { AppError } from '../../shared/errors.ts';

/** The file was written by a newer Asset Studio. It was opened read-only and left as it was. */
export class DatabaseTooNewError extends AppError<'database-too-new'> {
  readonly path: string;
  readonly found: number;
  readonly known: number;

  constructor(path: string, found: number, known: number) {
    super(
      'database-too-new',
      `The database at ${path} was written by a newer version of Asset Studio (schema ${found}, this version knows up to ${known}). ` +
        'Update Asset Studio, or point --data-dir at another folder. The file was not changed.',
    );
    this.path = path;
    this.found = found;
    this.known = known;
  }
}

/**
 * The database is damaged: not a SQLite file, emptied, or SQLite found it damaged. Found when it is opened, it
 * is kept aside (`keptAs`, main/store/damaged.ts) and not opened; found later (a query), it is left where it is.
 * Either way the message names the file and `asset-studio doctor`, which salvages what can be read. Nothing is
 * ever deleted.
 */
export class DatabaseCorruptError extends AppError<'database-corrupt'> {
  readonly path: string;
  /** Where the damaged file was kept aside, when it was (at open, or earlier). */
  readonly keptAs: string | undefined;

  constructor(path: string, cause: unknown, keptAs?: string, options: { earlier?: boolean } = {}) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const doctor = `Run "asset-studio doctor" to salvage what can be read from it into a new database`;
    super(
      'database-corrupt',
      keptAs === undefined
        ? `The database ${path} is damaged (SQLite says: ${detail}). Stop Asset Studio, then ${doctor.charAt(0).toLowerCase()}${doctor.slice(1)} ` +
            '(it keeps the damaged file aside). Nothing was deleted.'
        : options.earlier
          ? `The database ${path} was found damaged earlier and is kept aside as ${keptAs}; no new one is made in its place ` +
            `until it is dealt with. ${doctor}, or move ${keptAs} elsewhere to start with an empty library.`
          : `The database ${path} is damaged (${detail}): it was not opened, and is kept aside as ${keptAs} ` +
            `(nothing was deleted or overwritten). ${doctor}, or point --data-dir at another folder.`,
      { cause },
    );
    this.path = path;
    this.keptAs = keptAs;
  }
}

/** `journal.begin` was given an operation id that is already in the journal. */
export class DuplicateOperationError extends AppError<'duplicate-operation'> {
  readonly operationId: string;

  constructor(operationId: string) {
    super(
      'duplicate-operation',
      `The operation ${operationId} is already in the submission journal; use a new operation id for a new request.`,
    );
    this.operationId = operationId;
  }
}

/** A journal entry cannot move to the asked state from the state it is in. */
export class JournalStateError extends AppError<'journal-state'> {
  readonly operationId: string;
  readonly from: string;
  readonly to: string;

  constructor(operationId: string, from: string, to: string) {
    super(
      'journal-state',
      `The operation ${operationId} is ${from} in the submission journal and cannot become ${to}.`,
    );
    this.operationId = operationId;
    this.from = from;
    this.to = to;
  }
}

/** An update named a row that does not exist. */
export class RecordNotFoundError extends AppError<'record-not-found'> {
  readonly table: string;
  readonly id: string;

  constructor(table: string, id: string) {
    super('record-not-found', `There is no ${table} row with id ${id} in the local database.`);
    this.table = table;
    this.id = id;
  }
}

/**
 * The data folder (or the cache folder) cannot be used: it is a file, it cannot be created or written, or
 * it belongs to another user. The message names the folder and says what to do (code `data-folder`, or
 * `cache-folder` for the cache's: bad input, see shared/errors.ts).
 */
export class DataFolderError extends AppError<'data-folder' | 'cache-folder'> {
  readonly path: string;

  constructor(path: string, message: string, cause?: unknown, code: 'data-folder' | 'cache-folder' = 'data-folder') {
    super(code, message, { cause });
    this.path = path;
  }
}
