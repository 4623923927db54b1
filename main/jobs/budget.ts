// One request budget for the whole app: at most N requests at once, at most R per second, and a
// global pause when the service answers 429 (nothing is sent before its Retry-After has passed).
import { setTimeout as sleep } from 'node:timers/promises';

export interface BudgetOptions {
  maxConcurrent?: number;
  maxPerSecond?: number;
  now?: () => number;
}

export class RequestBudget {
  readonly maxConcurrent: number;
  readonly maxPerSecond: number;
  #active = 0;
  #nextSlotAt = 0;
  #pausedUntil = 0;
  readonly #waiters: (() => void)[] = [];
  readonly #now: () => number;

  constructor(options: BudgetOptions = {}) {
    this.maxConcurrent = options.maxConcurrent ?? 4;
    this.maxPerSecond = options.maxPerSecond ?? 8;
    this.#now = options.now ?? Date.now;
  }

  /** Epoch ms until which nothing is sent (0 when not paused). */
  get pausedUntil(): number {
    return this.#pausedUntil > this.#now() ? this.#pausedUntil : 0;
  }

  get active(): number {
    return this.#active;
  }

  /** Stops all requests until `until` (keeps the later of two pauses). */
  pause(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }

  /** Runs `fn` when a slot is free, the rate allows and no pause is in force. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await fn();
    } finally {
      this.#active--;
      this.#waiters.shift()?.();
    }
  }

  async #acquire(signal?: AbortSignal): Promise<void> {
    while (this.#active >= this.maxConcurrent) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
    this.#active++;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const now = this.#now();
        const wait = Math.max(this.#pausedUntil - now, this.#nextSlotAt - now);
        if (wait <= 0) break;
        await sleep(wait, undefined, signal ? { signal } : undefined);
      }
      this.#nextSlotAt = Math.max(this.#now(), this.#nextSlotAt) + 1000 / this.maxPerSecond;
    } catch (error) {
      this.#active--;
      this.#waiters.shift()?.();
      throw error;
    }
  }
}
