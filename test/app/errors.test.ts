// The one table of error codes (shared/errors.ts): every domain error carries a code, and the CLI (code and
// exit code of --json errors), the bridge (BridgeError code) and the web host (HTTP status) all read it.
// The expectations are what each front end answered before the table existed.
import { describe, expect, it } from 'vitest';
import { AppError, DiskFullError, ERROR_TABLE, EXPORT_ERROR_CODES, INSPECTION_CODES } from '../../shared/errors.ts';
import * as api from '../../main/api/errors.ts';
import { ConnectionError } from '../../main/app/connection.ts';
import { CacheFolderError } from '../../main/cache/folder.ts';
import { DownloadError } from '../../main/cache/downloader.ts';
import { describeFailure } from '../../main/cli/error-report.ts';
import { UsageError } from '../../main/cli/usage-error.ts';
import { WaitTimeoutError } from '../../main/cli/wait-jobs.ts';
import { KeyStorageError, ProfileError } from '../../main/config/profiles.ts';
import { SettingsError } from '../../main/config/data-dir.ts';
import { ExportError } from '../../main/export/errors.ts';
import { InspectionError } from '../../main/files/errors.ts';
import { httpStatusOf, toBridgeError } from '../../main/host/errors.ts';
import { UnknownOperationError } from '../../main/jobs/reconcile.ts';
import { OperationConflictError, SubmissionUnknownError } from '../../main/jobs/submit.ts';
import {
  DatabaseCorruptError,
  DatabaseTooNewError,
  DataFolderError,
  RecordNotFoundError,
} from '../../main/store/errors.ts';

const endpoint = 'GET /x';

/** [error, CLI code, exit code, bridge code, HTTP status] */
const CASES: [Error, string, number, string, number][] = [
  [new UsageError('bad'), 'usage', 2, 'invalid-input', 400],
  [
    new api.RequestValidationError({ endpoint, issues: [{ path: 'a', message: 'is required' }] }),
    'request-validation',
    2,
    'invalid-input',
    400,
  ],
  [
    new api.ServiceResponseError({ endpoint, status: 404, idempotent: true }),
    'service-response',
    3,
    'service-error',
    502,
  ],
  [new api.ProtocolError({ endpoint, problem: 'empty' }), 'protocol', 3, 'protocol', 502],
  [new api.TimeoutError({ endpoint, phase: 'headers', timeoutMs: 10, idempotent: true }), 'timeout', 4, 'timeout', 504],
  [
    new api.NetworkError({ endpoint, code: 'ECONNREFUSED', detail: '', idempotent: true }),
    'network',
    5,
    'network',
    502,
  ],
  [new api.CancelledError({ endpoint }), 'cancelled', 1, 'cancelled', 409],
  [new SubmissionUnknownError('op_1', undefined, 'reset'), 'submission-unknown', 3, 'submission-unknown', 409],
  [new OperationConflictError('other request'), 'operation-conflict', 2, 'conflict', 409],
  [new UnknownOperationError('no such operation'), 'unknown-operation', 2, 'not-found', 404],
  [new SettingsError('bad key file'), 'settings', 2, 'invalid-settings', 400],
  [new ConnectionError('invalid', 'bad address'), 'connection', 2, 'invalid-settings', 400],
  [new DataFolderError('/x', 'a file'), 'data-folder', 2, 'invalid-settings', 400],
  [new CacheFolderError('/x', 'a file'), 'cache-folder', 2, 'invalid-settings', 400],
  [new ProfileError('no profile'), 'profile', 1, 'invalid-settings', 400],
  [new KeyStorageError('no keychain'), 'key-storage', 1, 'key-storage', 422],
  [
    new InspectionError({
      code: 'wrong-format',
      file: 'a.fbx',
      reason: 'is not an FBX file',
      action: 'Export it again.',
    }),
    'wrong-format',
    2,
    'file-rejected',
    422,
  ],
  [
    new ExportError('target-exists', { file: '/p/a', why: 'exists', fix: 'Overwrite' }),
    'target-exists',
    1,
    'export-target-exists',
    422,
  ],
  [new DownloadError('gone', { reason: 'http', bytesKept: 0 }), 'download', 1, 'download-failed', 502],
  [new RecordNotFoundError('jobs', 'job_1'), 'record-not-found', 1, 'not-found', 404],
  [new WaitTimeoutError('waited'), 'wait-timeout', 4, 'timeout', 504],
  [new DatabaseTooNewError('/db', 9, 3), 'database-too-new', 1, 'internal', 500],
  [new DatabaseCorruptError('/db', new Error('not a database')), 'database-corrupt', 1, 'database-corrupt', 500],
  [new DiskFullError('/data', 'the local database (asset-studio.db)'), 'disk-full', 1, 'disk-full', 507],
  [new TypeError('x is undefined'), 'internal', 1, 'internal', 500],
];

describe('the error table', () => {
  for (const [error, cliCode, exitCode, bridgeCode, status] of CASES) {
    it(`${error.constructor.name}: CLI ${cliCode} (exit ${exitCode}), bridge ${bridgeCode}, HTTP ${status}`, () => {
      expect(describeFailure(error)).toEqual({ code: cliCode, message: error.message, exitCode });
      const bridge = toBridgeError(error, []);
      expect(bridge.code).toBe(bridgeCode);
      expect(httpStatusOf(bridge)).toBe(status);
      if (error instanceof AppError) {
        expect(error.exitCode).toBe(exitCode);
        expect(Object.hasOwn(error, 'exitCode')).toBe(false); // from the table, never a literal of its own
      }
    });
  }

  it('gives each bridge code one HTTP status', () => {
    const statuses = new Map<string, Set<number>>();
    for (const m of Object.values(ERROR_TABLE))
      statuses.set(m.bridgeCode, (statuses.get(m.bridgeCode) ?? new Set()).add(m.httpStatus));
    for (const [code, set] of statuses) expect([...set], code).toHaveLength(1);
  });

  it('knows every inspection and export code', () => {
    for (const code of [...INSPECTION_CODES, ...EXPORT_ERROR_CODES]) expect(ERROR_TABLE[code], code).toBeDefined();
  });

  it('keeps field issues and messages, and redacts secrets', () => {
    const error = new api.RequestValidationError({
      endpoint,
      issues: [{ path: 'image_url', message: 'sk_live_SECRET is not a URL' }],
    });
    const bridge = toBridgeError(error, ['sk_live_SECRET']);
    expect(bridge.issues).toEqual([{ path: 'image_url', message: '[redacted] is not a URL' }]);
    expect(bridge.message).not.toContain('sk_live_SECRET');
  });

  it('wraps an unplanned failure in words, keeping its message', () => {
    expect(toBridgeError(new Error('boom'), []).message).toMatch(
      /^Something went wrong in Asset Studio \(boom\)\. Try again/,
    );
  });
});
