// A pool of worker threads that run plain-data tasks off the calling thread's event loop, each worker one task at
// a time. The engine runs its CPU work on one (main/engine/work/pool.ts), the library's thumbnails on a pool of
// one worker (main/mesh/thumbnail-thread.ts). The worker's script answers tasks with serveTasks (serve-tasks.ts).
//
// - Workers start when first needed, at most `size`; `size` 0 runs every task on the calling thread (`runInline`).
// - Tasks of the same `affinity` go to the worker that ran one last (it keeps what it made in memory).
// - A task run with `recycle` ends its worker once it answered: what the task allocated goes back to the system.
// - A cancelled task (its AbortSignal) is dropped from the queue, or its worker is terminated and replaced.
// - A worker that crashes (throws outside a task, exits, runs out of its heap: `maxOldGenerationSizeMb`) fails
//   the one task it ran with a WorkerCrash naming why; the next task gets a new worker.
// - With `idleMs`, a worker idle that long is stopped (the next task starts another); an idle worker never keeps
//   the process alive, a busy one does.
// - close() fails every queued and running task at once, and waits for the workers to be gone: an idle one is
//   terminated, a busy one is let finish its task (its answer dropped) for up to CLOSE_GRACE_MS first. Node aborts
//   the whole process when a worker is terminated in the middle of some native calls (a zlib stream being set up:
//   "close before init"), so a worker is only terminated mid-task when its task is cancelled or the grace runs out.
import { Worker } from 'node:worker_threads';

/** How long close() lets a busy worker finish its task before terminating it. */
export const CLOSE_GRACE_MS = 3_000;

/** A worker died while it ran the task; `reason` completes the worker's name ("the engine's worker …"). */
export class WorkerCrash extends Error {
  readonly reason: string;
  constructor(worker: string, reason: string) {
    super(`${worker} ${reason}`);
    this.name = 'WorkerCrash';
    this.reason = reason;
  }
}

/** The pool was closed (its owner stopped) before the task ended. */
export class PoolClosed extends Error {
  constructor() {
    super('the work stopped: its worker threads were closed');
    this.name = 'PoolClosed';
  }
}

/** Every task names its kind; a pool's `Results` gives each kind's result. */
export interface KindedTask {
  kind: string;
}

export interface WorkerPoolOptions<T extends KindedTask> {
  /** The worker's script (it calls serveTasks). */
  script: URL;
  /** What users call a worker, in a crash's message: "the engine's worker". */
  name: string;
  /** Worker threads; 0 = every task on the calling thread, through `runInline`. */
  size: number;
  /** Heap limit of each worker (V8's old generation), MiB; a task that needs more crashes its worker. */
  maxOldGenerationSizeMb: number;
  /** Runs a task on the calling thread (size 0). */
  runInline?: (task: T) => Promise<unknown>;
  /** How many affinity keys a worker remembers. Default 4. */
  remembered?: number;
  /** A worker idle this long is stopped; undefined: kept until close(). */
  idleMs?: number;
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  /** Tasks with the same key go to the worker that ran one last. */
  affinity?: string | undefined;
  /**
   * End the worker once the task answered (the next task gets a new one): all it allocated goes back to the system,
   * as a worker's heap and buffers never do while it lives. For a task whose memory depends on its input (reading
   * an uploaded FBX with Babylon's loader took the engine's process from 120 MB to 370 MB, kept after the job).
   */
  recycle?: boolean | undefined;
}

/** What a worker answers (serve-tasks.ts). */
export type WorkerAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name?: string; message: string } };

interface Job {
  task: KindedTask;
  affinity: string | undefined;
  recycle: boolean;
  signal: AbortSignal | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  /** Affinity keys of its last tasks, newest last. */
  recent: string[];
  /** Set once it is being ended (cancelled, crashed, idle, closed): its events no longer count. */
  ended: boolean;
  /** Ended by close() while busy: terminated once its task ends (or CLOSE_GRACE_MS passed). */
  draining?: ReturnType<typeof setTimeout>;
  error?: Error;
  idle?: ReturnType<typeof setTimeout>;
}

export class WorkerPool<T extends KindedTask, Results extends { [K in T['kind']]: unknown }> {
  readonly size: number;
  private readonly options: WorkerPoolOptions<T>;
  /** The live workers: a slot leaves it as it is ended (end()). */
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly exits = new Set<Promise<unknown>>();
  private nextId = 1;
  private closed = false;

  constructor(options: WorkerPoolOptions<T>) {
    const { size } = options;
    if (!Number.isInteger(size) || size < 0)
      throw new RangeError(`the pool size must be a whole number ≥ 0, got ${size}`);
    if (size === 0 && options.runInline === undefined)
      throw new RangeError('a pool of size 0 runs its tasks on the calling thread: give runInline');
    this.size = size;
    this.options = options;
  }

  /** Thread ids of the live workers (for tests). */
  get threadIds(): number[] {
    return this.slots.map((s) => s.worker.threadId);
  }

  /**
   * Runs a task on a worker (queued while all are busy). Rejects with the signal's reason when cancelled, a
   * WorkerCrash when its worker dies, PoolClosed when the pool closes first, or the error the task threw.
   */
  run<K extends T['kind']>(task: Extract<T, { kind: K }>, options: RunOptions = {}): Promise<Results[K]> {
    if (this.closed) return Promise.reject(new PoolClosed());
    options.signal?.throwIfAborted();
    if (this.size === 0) return this.options.runInline!(task) as Promise<Results[K]>;
    return new Promise((resolve, reject) => {
      const job: Job = {
        task,
        affinity: options.affinity,
        recycle: options.recycle === true,
        signal: options.signal,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      if (job.signal !== undefined) {
        job.onAbort = () => this.cancel(job);
        job.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Fails every queued task, terminates every worker (their running tasks fail) and waits until they are gone. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, undefined, new PoolClosed());
    for (const slot of [...this.slots]) this.end(slot, new PoolClosed(), { drain: true });
    while (this.exits.size > 0) await Promise.allSettled([...this.exits]);
  }

  /** Starts the queued tasks that have a worker free (or a worker to start). */
  private pump(): void {
    for (let i = 0; i < this.queue.length && !this.closed; ) {
      const job = this.queue[i]!;
      const slot = this.slotFor(job);
      if (slot === undefined) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.start(slot, job);
    }
  }

  /** An idle worker for the job; undefined: it waits (for the worker that holds its affinity, or for any worker). */
  private slotFor(job: Job): Slot | undefined {
    if (job.affinity !== undefined) {
      const holder = this.slots.find((s) => s.recent.includes(job.affinity!));
      if (holder !== undefined) return holder.job === undefined ? holder : undefined;
    }
    const idle = this.slots.find((s) => s.job === undefined);
    if (idle !== undefined) return idle;
    return this.slots.length < this.size ? this.spawn() : undefined;
  }

  private spawn(): Slot {
    const memoryMb = this.options.maxOldGenerationSizeMb;
    const worker = new Worker(this.options.script, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    const slot: Slot = { worker, job: undefined, recent: [], ended: false };
    worker.unref(); // an idle worker does not keep the process alive; a busy one is ref'd
    worker.on('message', (answer: WorkerAnswer) => {
      const job = slot.job;
      if (slot.draining !== undefined) void worker.terminate(); // its task ended after close(): now it may go
      if (slot.ended || job === undefined) return;
      slot.job = undefined;
      worker.unref();
      if (job.recycle) this.end(slot); // its task answered: its memory goes back with it
      if (answer.ok) this.settle(job, answer.value);
      else
        this.settle(
          job,
          undefined,
          Object.assign(new Error(answer.error.message), { name: answer.error.name ?? 'Error' }),
        );
      this.pump();
      if (slot.job === undefined && !slot.ended) this.stopWhenIdle(slot);
    });
    worker.on('error', (error: Error) => {
      slot.error = error;
    });
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', (code) => {
        clearTimeout(slot.draining);
        resolve();
        this.exits.delete(exited);
        if (slot.ended) return;
        const error = slot.error as (Error & { code?: string }) | undefined;
        const reason =
          error?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `ran out of memory (its heap is limited to ${memoryMb} MB)`
            : error !== undefined
              ? `crashed (${error.message})`
              : `stopped (exit code ${code})`;
        this.end(slot, new WorkerCrash(this.options.name, reason));
        this.pump(); // a new worker for the next task
      }),
    );
    this.exits.add(exited);
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    clearTimeout(slot.idle);
    slot.job = job;
    if (job.affinity !== undefined) {
      const remembered = this.options.remembered ?? 4;
      slot.recent = [...slot.recent.filter((k) => k !== job.affinity), job.affinity].slice(-remembered);
    }
    slot.worker.ref();
    slot.worker.postMessage({ id: this.nextId++, task: job.task });
  }

  private stopWhenIdle(slot: Slot): void {
    if (this.options.idleMs === undefined) return;
    slot.idle = setTimeout(() => this.end(slot), this.options.idleMs);
    slot.idle.unref();
  }

  /**
   * Ends a worker for good: its running task (if any) fails with `error`, and it leaves the pool. It is terminated
   * now, or with `drain` (close()), once the task it runs ends, CLOSE_GRACE_MS at the most.
   */
  private end(slot: Slot, error?: Error, options: { drain?: boolean } = {}): void {
    if (slot.ended) return;
    slot.ended = true;
    clearTimeout(slot.idle);
    this.slots.splice(this.slots.indexOf(slot), 1);
    const job = slot.job;
    slot.job = undefined;
    if (job !== undefined) this.settle(job, undefined, error ?? new PoolClosed());
    if (options.drain && job !== undefined)
      slot.draining = setTimeout(() => void slot.worker.terminate(), CLOSE_GRACE_MS);
    else void slot.worker.terminate();
  }

  private cancel(job: Job): void {
    const reason = job.signal!.reason;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, undefined, reason);
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot === undefined) return;
    this.end(slot, reason); // its work stops with its thread; the next task gets a new worker
    this.pump();
  }

  private settle(job: Job, value: unknown, error?: unknown): void {
    if (job.onAbort !== undefined) job.signal!.removeEventListener('abort', job.onAbort);
    if (error === undefined) job.resolve(value);
    else job.reject(error);
  }
}
