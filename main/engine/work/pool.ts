// The engine's worker threads: its CPU work (output files from their recipes, retopologies, reading uploaded
// characters; tasks.ts) runs here, off the event loop of the process hosting the engine (Electron's main
// process, the CLI, the web host), which stays free for requests and IPC. See README.md "Off the app's thread".
//
// - Size: `defaultPoolSize()` workers, started when first needed; 0 runs every task on the calling thread (the
//   engine's behaviour before the pool, kept for the bench's baseline).
// - One task at a time per worker. Tasks of the same model (`affinity`) go to the worker that made it last, which
//   keeps the model in memory (generate/picture-model.ts caches the last few): a session's GLB, OBJ, textures,
//   FBX and USDZ are made from one model once, not once per worker.
// - A cancelled task (its AbortSignal) is dropped from the queue, or its worker is terminated and replaced.
// - A worker that crashes (throws outside a task, exits, runs out of its heap: `maxOldGenerationSizeMb`) fails
//   the task it ran with a WorkerCrash naming why; the pool starts another worker for the next task.
// - close() fails every queued task, terminates every worker and waits for them to be gone.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ResultOf, Task } from './tasks.ts';

/** A worker died while it ran the task: `reason` completes "the engine's worker …". */
export class WorkerCrash extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`the engine's worker ${reason}`);
    this.name = 'WorkerCrash';
    this.reason = reason;
  }
}

/** The pool was closed (the engine stopped) before the task ended. */
export class PoolClosed extends Error {
  constructor() {
    super('the engine stopped');
    this.name = 'PoolClosed';
  }
}

export interface PoolOptions {
  /** Worker threads; 0 = every task on the calling thread. Default defaultPoolSize(). */
  size?: number;
  /** Heap limit of each worker (V8's old generation); a task that needs more crashes its worker. Default 2048. */
  maxOldGenerationSizeMb?: number;
}

/**
 * One worker per core but one, at least 1 and at most 4: the hosting process's own thread (HTTP, IPC, file I/O)
 * and the app's renderer keep a core; each worker holds its own copy of the engine's modules and models (and up
 * to its heap limit), so their number is capped.
 */
export function defaultPoolSize(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** How many models a worker keeps in memory (generate/picture-model.ts, visual-hull.ts: CACHE_SIZE). */
const REMEMBERED = 4;

/** The worker's script: the TypeScript source, or in the Electron bundle (scripts/build.ts) the bundled one beside main.cjs. */
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./worker.ts', import.meta.url)
  : new URL('./engine-worker.cjs', import.meta.url);

interface Job {
  task: Task;
  affinity: string | undefined;
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
  /** Set once it is being ended (cancelled, crashed, closed): its events no longer count. */
  ended: boolean;
  error?: Error;
}

export class WorkPool {
  readonly size: number;
  private readonly memoryMb: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly exits = new Set<Promise<unknown>>();
  private inline: Promise<typeof import('./tasks.ts')> | undefined;
  private nextId = 1;
  private closed = false;

  constructor(options: PoolOptions = {}) {
    const size = options.size ?? defaultPoolSize();
    if (!Number.isInteger(size) || size < 0)
      throw new RangeError(`the pool size must be a whole number ≥ 0, got ${size}`);
    this.size = size;
    this.memoryMb = options.maxOldGenerationSizeMb ?? 2048;
  }

  /** Thread ids of the live workers (for tests). */
  get threadIds(): number[] {
    return this.slots.filter((s) => !s.ended).map((s) => s.worker.threadId);
  }

  /**
   * Runs a task on a worker (queued while all are busy). Rejects with the signal's reason when cancelled, a
   * WorkerCrash when its worker dies, PoolClosed when the pool closes first, or the error the task threw.
   */
  run<K extends Task['kind']>(
    task: Extract<Task, { kind: K }>,
    options: { signal?: AbortSignal; affinity?: string } = {},
  ): Promise<ResultOf[K]> {
    if (this.closed) return Promise.reject(new PoolClosed());
    options.signal?.throwIfAborted();
    if (this.size === 0) return this.runInline(task) as Promise<ResultOf[K]>;
    return new Promise((resolve, reject) => {
      const job: Job = {
        task,
        affinity: options.affinity,
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
    for (const slot of [...this.slots]) this.end(slot, new PoolClosed());
    while (this.exits.size > 0) await Promise.allSettled([...this.exits]);
  }

  private async runInline(task: Task): Promise<unknown> {
    const tasks = await (this.inline ??= import('./tasks.ts'));
    return tasks.runTask(task);
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

  /** An idle worker for the job; undefined: it waits (for the worker that holds its model, or for any worker). */
  private slotFor(job: Job): Slot | undefined {
    const live = this.slots.filter((s) => !s.ended);
    if (job.affinity !== undefined) {
      const holder = live.find((s) => s.recent.includes(job.affinity!));
      if (holder !== undefined) return holder.job === undefined ? holder : undefined;
    }
    const idle = live.find((s) => s.job === undefined);
    if (idle !== undefined) return idle;
    return live.length < this.size ? this.spawn() : undefined;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } });
    const slot: Slot = { worker, job: undefined, recent: [], ended: false };
    worker.unref(); // an idle worker does not keep the process alive; a busy one is ref'd
    worker.on(
      'message',
      (message: { id: number; ok: boolean; value?: unknown; error?: { name?: string; message: string } }) => {
        const job = slot.job;
        if (slot.ended || job === undefined) return;
        slot.job = undefined;
        worker.unref();
        if (message.ok) this.settle(job, message.value);
        else
          this.settle(
            job,
            undefined,
            Object.assign(new Error(message.error!.message), { name: message.error!.name ?? 'Error' }),
          );
        this.pump();
      },
    );
    worker.on('error', (error: Error & { code?: string }) => {
      slot.error = error;
    });
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', (code) => {
        resolve();
        this.exits.delete(exited);
        if (slot.ended) return;
        const error = slot.error as (Error & { code?: string }) | undefined;
        const reason =
          error?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `ran out of memory (its heap is limited to ${this.memoryMb} MB)`
            : error !== undefined
              ? `crashed (${error.message})`
              : `stopped (exit code ${code})`;
        this.end(slot, new WorkerCrash(reason));
        this.pump(); // a new worker for the next task
      }),
    );
    this.exits.add(exited);
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    if (job.affinity !== undefined) {
      slot.recent = [...slot.recent.filter((k) => k !== job.affinity), job.affinity].slice(-REMEMBERED);
    }
    slot.worker.ref();
    slot.worker.postMessage({ id: this.nextId++, task: job.task });
  }

  /** Ends a worker for good: its running task fails with `error`, it is terminated, and it leaves the pool. */
  private end(slot: Slot, error: Error): void {
    if (slot.ended) return;
    slot.ended = true;
    this.slots.splice(this.slots.indexOf(slot), 1);
    const job = slot.job;
    slot.job = undefined;
    if (job !== undefined) this.settle(job, undefined, error);
    void slot.worker.terminate();
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
