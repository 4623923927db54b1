// What the job tracker (tracker.ts) is built with, what it is given to follow, and the events it reports.
import type { ApiError } from '../api/errors.ts';
import type { ServiceClient } from '../api/client.ts';
import type { JobOrigin, JobRecord } from '../store/jobs.ts';
import type { Store } from '../store/database.ts';
import type { RequestBudget } from './budget.ts';
import type { TrackedRef } from './resources.ts';
import type { PollTiming } from './schedule.ts';

export interface TrackerEvents {
  'job-added': [JobRecord];
  progress: [JobRecord];
  finished: [JobRecord];
  failed: [JobRecord];
  /** A read failed; the job stays alive and is read again later. */
  'read-error': [JobRecord, ApiError];
  /** The service answered a read of this job (whatever it said). */
  'read-answered': [JobRecord];
  /**
   * The database could not be read or written while following jobs (a DiskFullError when its disk is full):
   * nothing stops, the jobs are read again once it can be written (waitFor rejects on a full disk).
   */
  'store-error': [unknown];
}

/** Called once when a job succeeds: downloads its outputs. `refresh` re-reads the job (signed URLs expire). */
export type FinishedHook = (job: JobRecord, refresh: () => Promise<JobRecord>) => Promise<void>;

export interface TrackerOptions {
  store: Store;
  client: ServiceClient;
  budget?: RequestBudget;
  timing?: PollTiming;
  /** How long a status the app does not know keeps a job alive (default 24 h). */
  unknownStatusLimitMs?: number;
  /** Pause after a 429 without Retry-After. */
  defaultPauseMs?: number;
  /** True while a webhook receiver announces changes: polling becomes a slow safety net. */
  webhooks?: () => boolean;
  /**
   * How often the database is checked for jobs another process on this data folder changed (the CLI next
   * to the app): default 500 ms; 0 turns it off. Their changes are reported as this tracker's events.
   */
  followIntervalMs?: number;
  onFinished?: FinishedHook;
  /**
   * How long the claim of a read lasts unless renewed (read-claim.ts; default 30 s): a reader killed or
   * stopped while it reads leaves the job to the next reader of the data folder after this long.
   */
  claimLeaseMs?: number;
  /** Where the jobs this tracker adds are made (the connection it reads from); default: unknown (null). */
  origin?: JobOrigin;
  now?: () => number;
  random?: () => number;
}

export interface TrackInput extends TrackedRef {
  label: string;
  operationId?: string | null;
  parentId?: string | null;
  /** The resource as the create call returned it. */
  initial?: unknown;
}
