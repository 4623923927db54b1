// Jobs changed by another process on the same data folder (the CLI next to the app, or the app next to a
// CLI `watch`): the database is one SQLite file in WAL mode, and its `PRAGMA data_version` moves whenever
// another connection commits. Checked every `intervalMs` (a cheap read), a move reads the jobs updated
// since the last check (plus finished ones whose outputs were not downloaded yet, which change without a new
// updated_at), compares each with what this process last saw of it, and reports what changed as the
// tracker's own events: a new job, progress, finished or failed. This process's own changes were seen
// already (the tracker's events record them), so they are not reported twice.
import type { JobRecord } from '../store/jobs.ts';
import type { Store } from '../store/database.ts';

export type ForeignChange = { event: 'job-added' | 'progress' | 'finished' | 'failed'; job: JobRecord };

/** How far back a check looks before its last one: writes commit a moment after the time they carry. */
const MARGIN_MS = 10_000;

/** What the page and the CLI show of a job: a change of any of these is reported. */
function fingerprint(job: JobRecord): string {
  return JSON.stringify([
    job.state,
    job.rawStatus,
    job.percent,
    job.final,
    job.error,
    job.outputsFetched,
    job.label,
    job.remoteId,
    (job as { name?: unknown }).name ?? null,
  ]);
}

interface Seen {
  print: string;
  updatedAt: number;
  final: boolean;
  /** Succeeded with outputs not downloaded yet: marking them downloaded keeps the job's updated_at. */
  waitingForOutputs: boolean;
}

export class OtherProcessChanges {
  readonly #store: Store;
  readonly #now: () => number;
  readonly #seen = new Map<string, Seen>();
  #version: number;
  #checkedAt: number;

  constructor(store: Store, now: () => number) {
    this.#store = store;
    this.#now = now;
    this.#version = store.jobs.dataVersion();
    this.#checkedAt = now();
    for (const job of store.jobs.changedSince(this.#checkedAt - MARGIN_MS)) this.saw(job);
  }

  /** This process changed (or reported) the job: it is not another's change. */
  saw(job: JobRecord): void {
    this.#seen.set(job.id, {
      print: fingerprint(job),
      updatedAt: job.updatedAt,
      final: job.final,
      waitingForOutputs: job.state === 'succeeded' && !job.outputsFetched,
    });
  }

  /** The changes other processes committed since the last check (none when the data version did not move). */
  check(): ForeignChange[] {
    const version = this.#store.jobs.dataVersion();
    if (version === this.#version) return [];
    this.#version = version;
    const since = this.#checkedAt - MARGIN_MS;
    this.#checkedAt = this.#now();
    const waiting = [...this.#seen].filter(([, s]) => s.waitingForOutputs).map(([id]) => id);
    const changes: ForeignChange[] = [];
    for (const job of this.#store.jobs.changedSince(since, waiting)) {
      const before = this.#seen.get(job.id);
      if (before?.print === fingerprint(job)) continue;
      this.saw(job);
      const added = before === undefined && job.createdAt >= since;
      if (added) changes.push({ event: 'job-added', job });
      // Final now, and not when last seen (or, never seen, it ended since the last check).
      const ended = job.final && (before ? !before.final : (job.finishedAt ?? 0) >= since);
      if (ended) changes.push({ event: job.state === 'succeeded' ? 'finished' : 'failed', job });
      else if (!added) changes.push({ event: 'progress', job });
    }
    // What cannot change any more without a new updated_at is forgotten.
    for (const [id, s] of this.#seen)
      if (s.updatedAt < since - MARGIN_MS && !s.waitingForOutputs) this.#seen.delete(id);
    return changes;
  }
}
