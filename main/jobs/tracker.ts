// The job tracker: one scheduler for every job of the app. It reads each unfinished job when its
// next read is due (see schedule.ts), within the app's request budget, pauses everything when the
// service answers 429, resumes unfinished jobs at start, and reports what happens as events.
import { EventEmitter } from 'node:events';
import type { ServiceClient } from '../api/client.ts';
import { ApiError, ServiceResponseError } from '../api/errors.ts';
import type { JobOrigin, JobRecord } from '../store/jobs.ts';
import type { Store } from '../store/database.ts';
import { normaliseStatus } from '../../shared/contract/lifecycle.ts';
import { DiskFullError } from '../../shared/errors.ts';
import { RequestBudget } from './budget.ts';
import { canObserve, observe, type Observation, type TrackedRef } from './resources.ts';
import { recoverLostSubmissions } from './lost-submissions.ts';
import { OtherProcessChanges } from './other-processes.ts';
import { claimRead, DEFAULT_CLAIM_LEASE_MS, type ReadClaim } from './read-claim.ts';
import { outcomeOfRead } from './read-outcome.ts';
import { DEFAULT_TIMING, nextPollDelay, type PollTiming } from './schedule.ts';
import type { FinishedHook, TrackerEvents, TrackerOptions, TrackInput } from './tracker-options.ts';

export class JobTracker extends EventEmitter<TrackerEvents> {
  readonly budget: RequestBudget;
  /** Where the jobs this tracker adds are made; null: unknown. The submitter records its jobs with it too. */
  readonly origin: JobOrigin | null;
  readonly #store: Store;
  readonly #client: ServiceClient;
  readonly #timing: PollTiming;
  readonly #unknownLimitMs: number;
  readonly #defaultPauseMs: number;
  readonly #webhooks: () => boolean;
  readonly #onFinished: FinishedHook | undefined;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #inFlight = new Map<string, Promise<void>>();
  /** The claims of the reads in flight (renewed while they last). */
  readonly #claims = new Map<string, ReadClaim>();
  readonly #claimLeaseMs: number;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  readonly #followIntervalMs: number;
  #follow: NodeJS.Timeout | undefined;
  /** Calls of waitFor still waiting: while there are some, the follow timer keeps the process alive. */
  #waiting = 0;
  #running = false;
  readonly #createdAt: number;
  /** Jobs someone is watching (a progress bar): id → how many watchers. Read at least every steadyFloorMs. */
  readonly #watched = new Map<string, number>();
  /** Jobs whose read ended while the database could not be written: scheduled again once it can. */
  readonly #unscheduled = new Set<string>();

  constructor(options: TrackerOptions) {
    super();
    this.#store = options.store;
    this.#client = options.client;
    this.budget = options.budget ?? new RequestBudget();
    this.origin = options.origin ?? null;
    this.#timing = options.timing ?? DEFAULT_TIMING;
    this.#unknownLimitMs = options.unknownStatusLimitMs ?? 24 * 3_600_000;
    this.#defaultPauseMs = options.defaultPauseMs ?? 30_000;
    this.#webhooks = options.webhooks ?? (() => false);
    this.#onFinished = options.onFinished;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#createdAt = this.#now();
    this.#followIntervalMs = options.followIntervalMs ?? 500;
    this.#claimLeaseMs = options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  }

  /**
   * Starts scheduling. Every unfinished job left by an earlier run is read at once: whatever happened
   * while the app was closed (including webhooks it missed) is seen at the first read.
   */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    const now = this.#now();
    for (const job of this.#store.jobs.listActive()) {
      if (
        job.remoteId !== null &&
        canObserve(job.kind) &&
        job.updatedAt < this.#createdAt &&
        (job.nextPollAt === null || job.nextPollAt > now)
      ) {
        this.#store.jobs.schedule(job.id, now, now);
      }
    }
    this.#arm();
    this.#followOtherProcesses();
  }

  /**
   * Reports what other processes of this data folder do to jobs as this tracker's events (other-processes.ts),
   * and schedules the jobs they add. Each read stays one process's: it is claimed, for a lease (read-claim.ts).
   */
  #followOtherProcesses(): void {
    if (this.#followIntervalMs <= 0) return;
    const others = new OtherProcessChanges(this.#store, this.#now);
    const saw = (job: JobRecord) => others.saw(job);
    for (const event of ['job-added', 'progress', 'finished', 'failed', 'read-answered'] as const) this.on(event, saw);
    this.#follow = setInterval(() => {
      let changes: ReturnType<OtherProcessChanges['check']>;
      try {
        // A process of the folder killed while its create was on the wire: its job shows now (lost-submissions.ts).
        for (const job of recoverLostSubmissions(this.#store, { now: this.#now() })) this.emit('job-added', job);
        changes = others.check();
      } catch {
        return; // the database busy or closing: the next check sees the same changes
      }
      for (const { event, job } of changes) this.emit(event, job);
      if (changes.length > 0) this.#arm();
    }, this.#followIntervalMs);
    if (this.#waiting === 0) this.#follow.unref(); // a waitFor keeps the process alive: another process may end its jobs
  }

  /** Stops scheduling and waits for reads in flight. Jobs stay in the database and resume at the next start. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    clearInterval(this.#follow);
    this.#abort.abort();
    await Promise.allSettled(this.#inFlight.values());
  }

  /** Adds a job created at the service and schedules its first read. */
  track(input: TrackInput): JobRecord {
    const now = this.#now();
    const job = this.#store.jobs.insert({
      kind: input.kind,
      label: input.label,
      remoteId: input.id,
      step: input.step ?? null,
      texts: input.texts ?? null,
      parentId: input.parentId ?? null,
      operationId: input.operationId ?? null,
      origin: this.origin,
      result: input.initial,
      nextPollAt: now + this.#delay({ kind: input.kind, step: input.step ?? null, createdAt: now, percent: null }, now),
      now,
    });
    this.emit('job-added', job);
    this.#arm();
    return job;
  }

  /**
   * A webhook's wake-up call: reads the jobs of this remote id as soon as the budget allows. `claimed`,
   * the status the notification names, is never stored (the read is the truth); it only saves reads:
   * a notification of one more running phase of a job already seen running waits for the next one.
   */
  wake(remoteId: string, claimed?: string): number {
    const now = this.#now();
    let woken = 0;
    for (const job of this.#store.jobs.activeByRemoteId(remoteId)) {
      const said =
        claimed === undefined ? undefined : normaliseStatus(job.kind, claimed, { step: job.step ?? undefined });
      const urgent =
        said === undefined ||
        said.final ||
        said.state === 'unknown' ||
        job.state === 'queued' ||
        job.state === 'submission_unknown';
      if (!urgent) continue;
      this.#store.jobs.schedule(job.id, now, now);
      woken++;
    }
    this.#arm();
    return woken;
  }

  /**
   * Someone shows these jobs' progress as it comes (the CLI's bars): until the returned function is called,
   * each is read at least every `steadyFloorMs` of the timing (1.8 s against the service), instead of only
   * around its predicted end, so the percentages and steps the service reports are seen on the way.
   */
  watch(ids: readonly string[]): () => void {
    const now = this.#now();
    for (const id of ids) {
      this.#watched.set(id, (this.#watched.get(id) ?? 0) + 1);
      this.#store.jobs.pollBy(id, now + this.#timing.steadyFloorMs);
    }
    this.#arm();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const id of ids) {
        const n = (this.#watched.get(id) ?? 1) - 1;
        if (n > 0) this.#watched.set(id, n);
        else this.#watched.delete(id);
      }
    };
  }

  /** Resolves with the jobs once all are final; rejects if the signal aborts. */
  waitFor(ids: readonly string[], signal?: AbortSignal): Promise<JobRecord[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        let jobs: JobRecord[];
        try {
          // One read per event for all of them (a batch waits for thousands); a missing one is RecordNotFoundError.
          const found = new Map(this.#store.jobs.getMany(ids).map((j) => [j.id, j]));
          jobs = ids.map((id) => found.get(id) ?? this.#store.jobs.require(id));
        } catch (error) {
          cleanup();
          reject(error);
          return;
        }
        if (jobs.every((j) => j.final)) {
          cleanup();
          resolve(jobs);
        }
      };
      // A full disk does not pass by itself: the wait ends with it, in words.
      const onStoreError = (error: unknown) => {
        if (!(error instanceof DiskFullError)) return;
        cleanup();
        reject(error);
      };
      const onAbort = () => {
        cleanup();
        reject(signal?.reason ?? new Error('aborted'));
      };
      this.#waiting++;
      this.#follow?.ref();
      let done = false;
      const cleanup = () => {
        if (!done && --this.#waiting === 0) this.#follow?.unref();
        done = true;
        this.off('finished', check);
        this.off('failed', check);
        this.off('store-error', onStoreError);
        signal?.removeEventListener('abort', onAbort);
      };
      this.on('finished', check);
      this.on('failed', check);
      this.on('store-error', onStoreError);
      signal?.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }

  /** Reads a job now, outside its schedule (e.g. to get fresh signed URLs). */
  async refresh(id: string): Promise<JobRecord> {
    await this.#read(this.#store.jobs.require(id));
    return this.#store.jobs.require(id);
  }

  // ---- scheduling ---------------------------------------------------------------------------

  /** Sets the one timer to the earliest due read (or the end of a pause). */
  #arm(): void {
    if (!this.#running) return;
    clearTimeout(this.#timer);
    // Another process of the data folder may have read a watched job and planned its next read late.
    for (const id of this.#watched.keys()) this.#store.jobs.pollBy(id, this.#now() + this.#timing.steadyFloorMs);
    let next = this.#store.jobs.nextDueAt(); // a job being read is due when its claim runs out unrenewed
    // Reads whose result could not be stored (a full disk): tried again after the steady interval.
    if (this.#unscheduled.size > 0) next = Math.min(next ?? Infinity, this.#now() + this.#timing.steadyFloorMs);
    if (next === undefined) return;
    const at = Math.max(next, this.budget.pausedUntil);
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, at - this.#now()));
  }

  #tick(): void {
    try {
      const now = this.#now();
      for (const id of this.#unscheduled) {
        this.#store.jobs.schedule(id, now, now);
        this.#unscheduled.delete(id);
      }
      const free = this.budget.maxConcurrent * 4;
      const lease = { now: this.#now, leaseMs: this.#claimLeaseMs };
      for (const job of this.#store.jobs.due(now, free + this.#inFlight.size)) {
        if (this.#inFlight.has(job.id)) {
          // Its read is still under way here but its claim ran out (this process was stopped or busy): claimed
          // again, unless another reader took it over meanwhile.
          this.#claims.get(job.id)?.release();
          const again = claimRead(this.#store, job.id, lease);
          if (again) this.#claims.set(job.id, again);
          else this.#claims.delete(job.id);
          continue;
        }
        const claim = claimRead(this.#store, job.id, lease);
        if (claim === undefined) continue; // another process of this data folder reads it
        if (job.remoteId === null || !canObserve(job.kind)) {
          claim.release();
          this.#store.jobs.schedule(job.id, null, now); // nothing to read: no longer due
          continue;
        }
        this.#claims.set(job.id, claim);
        const read = this.#read(job)
          .catch((error: unknown) => {
            // The read's result could not be stored (a full disk): read it again once the database can be written.
            this.#unscheduled.add(job.id);
            this.#storeFailed(error);
          })
          .finally(() => {
            this.#claims.get(job.id)?.release();
            this.#claims.delete(job.id);
            this.#inFlight.delete(job.id);
            this.#armOrRetry();
          });
        this.#inFlight.set(job.id, read);
      }
      this.#arm();
    } catch (error) {
      this.#storeFailed(error);
    }
  }

  #armOrRetry(): void {
    try {
      this.#arm();
    } catch (error) {
      this.#storeFailed(error);
    }
  }

  /**
   * The database failed under the scheduler (a timer's callback, where a throw would end the process): said as
   * a 'store-error' event, and the scheduler tries again after the steady interval.
   */
  #storeFailed(error: unknown): void {
    this.emit('store-error', error);
    if (!this.#running) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#tick(), this.#timing.steadyFloorMs);
  }

  async #read(job: JobRecord): Promise<void> {
    const ref: TrackedRef = {
      kind: job.kind,
      id: job.remoteId!,
      ...(job.step && { step: job.step }),
      ...(job.texts && { texts: job.texts }),
    };
    let seen: Observation;
    try {
      seen = await this.budget.run(async () => {
        try {
          return await observe(this.#client, ref, this.#abort.signal, 1);
        } catch (error) {
          this.#pauseOn429(error); // before the slot is released, so no queued read slips out
          throw error;
        }
      }, this.#abort.signal);
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      this.#onReadError(job, error);
      return;
    }
    this.emit('read-answered', job);
    this.#apply(job, seen);
  }

  #apply(job: JobRecord, seen: Observation): void {
    const now = this.#now();
    const current = this.#store.jobs.get(job.id);
    if (current === undefined) return; // deleted from the library while the read was on its way
    if (current.final) {
      // A finished job read again (refresh: fresh signed URLs) keeps its state and takes the new result;
      // one cancelled here while the read was on its way stays cancelled.
      if (job.final)
        this.#store.jobs.updateStatus(job.id, {
          state: current.state,
          rawStatus: current.rawStatus,
          percent: current.percent,
          final: true,
          result: seen.value,
          now,
        });
      return;
    }
    const s = seen.status;
    const { state, final, error } = outcomeOfRead(job, seen, now, this.#unknownLimitMs);
    const before = job.lastChangeAt;
    this.#store.jobs.updateStatus(job.id, {
      state,
      rawStatus: s.raw,
      percent: s.percent ?? null,
      final,
      result: seen.value,
      error,
      now,
    });
    const fresh = this.#store.jobs.schedule(
      job.id,
      final ? null : now + this.#watchedDelay(job.id, this.#delay({ ...job, percent: s.percent ?? null }, now)),
      now,
    );
    if (!final) {
      if (fresh.lastChangeAt !== before) this.emit('progress', fresh);
      return;
    }
    if (state === 'succeeded') {
      this.emit('finished', fresh);
      if (this.#onFinished) void this.#onFinished(fresh, () => this.refresh(fresh.id)).catch(() => undefined);
    } else {
      this.emit('failed', fresh);
    }
  }

  #onReadError(job: JobRecord, error: unknown): void {
    const now = this.#now();
    if (!(error instanceof ApiError)) {
      // Not a failure of the service (a bug here): the job stays, read again much later.
      this.#store.jobs.schedule(job.id, now + this.#timing.maxIntervalMs, now);
      return;
    }
    if (error instanceof ServiceResponseError && error.status === 404) {
      this.#store.jobs.updateStatus(job.id, {
        state: 'failed',
        rawStatus: job.rawStatus,
        final: true,
        now,
        error: `The service no longer knows ${job.remoteId} (HTTP 404). It may have been deleted or belong to another API key.`,
      });
      this.emit('failed', this.#store.jobs.schedule(job.id, null, now));
      return;
    }
    // Back off this job: twice the usual delay, at least until a pause ends.
    const delay = Math.min(this.#timing.maxIntervalMs, 2 * Math.max(this.#timing.steadyFloorMs, this.#delay(job, now)));
    this.emit(
      'read-error',
      this.#store.jobs.schedule(job.id, Math.max(now + delay, this.budget.pausedUntil), now),
      error,
    );
  }

  /** A 429 pauses every request of the app until its Retry-After has passed. */
  #pauseOn429(error: unknown): void {
    if (error instanceof ServiceResponseError && error.rateLimited) {
      this.budget.pause(this.#now() + (error.retryAfterMs ?? this.#defaultPauseMs));
    }
  }

  /** A watched job's delay is at most steadyFloorMs. */
  #watchedDelay(id: string, delay: number): number {
    return this.#watched.has(id) ? Math.min(delay, this.#timing.steadyFloorMs) : delay;
  }

  #delay(job: Pick<JobRecord, 'kind' | 'step' | 'createdAt' | 'percent'>, now: number): number {
    const state = {
      now,
      startedAt: job.createdAt,
      kind: job.kind,
      step: job.step ?? undefined,
      percent: job.percent ?? undefined,
      webhooks: this.#webhooks(),
    };
    return nextPollDelay(state, this.#timing, this.#random);
  }
}
