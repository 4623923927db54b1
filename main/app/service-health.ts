// Is the service (or the embedded engine) answering? A cheap read (the first row of the session list) is
// sent at start and then every `intervalMs`, unless other requests (the service list, the tracker's polls)
// got an answer within that time: their outcomes are recorded, so a failure shows at once and a busy app
// sends no extra reads. The app's header shows it: "Live" only
// while the last check got an answer, "Offline" with the reason otherwise.
import { EventEmitter } from 'node:events';
import type { ServiceHealth } from '../../shared/bridge/contract.ts';
import { ApiError, ServiceResponseError } from '../api/errors.ts';

export type { ServiceHealth };

export interface ServiceHealthOptions {
  /** One read of the service; rejects with the client's error when it does not answer. */
  probe(signal: AbortSignal): Promise<unknown>;
  /** Time between checks; default 30 s. */
  intervalMs?: number;
  /** A check with no answer after this long counts as unreachable; default 10 s. */
  probeTimeoutMs?: number;
  now?: () => number;
}

export const DEFAULT_HEALTH_INTERVAL_MS = 30_000;
const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

/** What an outcome says about reachability; undefined: nothing (e.g. a 404 of one job, a cancelled call). */
export function healthOf(outcome: { ok: true } | { error: unknown }, now: number): ServiceHealth | undefined {
  if ('ok' in outcome) return { state: 'reachable', checkedAt: now };
  const error = outcome.error;
  if (!(error instanceof ApiError)) return undefined;
  if (error.kind === 'network' || error.kind === 'timeout')
    return { state: 'unreachable', reason: error.message, checkedAt: now };
  if (error instanceof ServiceResponseError) {
    if (error.status === 401 || error.status === 403)
      return { state: 'failing', reason: error.message, checkedAt: now };
    if (error.status >= 500) return { state: 'failing', reason: error.message, checkedAt: now };
    return { state: 'reachable', checkedAt: now }; // it answered (429, 404...): it is there
  }
  return undefined;
}

export class ServiceHealthMonitor extends EventEmitter<{ change: [ServiceHealth] }> {
  readonly #probe: (signal: AbortSignal) => Promise<unknown>;
  readonly #intervalMs: number;
  readonly #probeTimeoutMs: number;
  readonly #now: () => number;
  #status: ServiceHealth = { state: 'unknown' };
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<ServiceHealth> | undefined;
  /** When another request last got an answer (record()); a due check is left out while that is recent. */
  #answeredAt = Number.NEGATIVE_INFINITY;
  #abort = new AbortController();

  constructor(options: ServiceHealthOptions) {
    super();
    this.#probe = options.probe;
    this.#intervalMs = options.intervalMs ?? DEFAULT_HEALTH_INTERVAL_MS;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
  }

  get status(): ServiceHealth {
    return this.#status;
  }

  /** Checks now, then every interval, until stop(). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.due(), this.#intervalMs);
    this.#timer.unref();
    void this.check();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  /** Sends one check (or joins the one in flight) and returns the status it leads to. */
  check(): Promise<ServiceHealth> {
    this.#inFlight ??= this.#runProbe().finally(() => (this.#inFlight = undefined));
    return this.#inFlight;
  }

  /** What the timer calls: a check, unless another request got an answer within the interval (returns undefined then). */
  due(): Promise<ServiceHealth> | undefined {
    if (this.#status.state === 'reachable' && this.#now() - this.#answeredAt < this.#intervalMs) return undefined;
    return this.check();
  }

  /** Records the outcome of another request to the service. */
  record(outcome: { ok: true } | { error: unknown }): void {
    const next = healthOf(outcome, this.#now());
    if (!next) return;
    this.#answeredAt = next.state === 'reachable' ? this.#now() : Number.NEGATIVE_INFINITY;
    this.#set(next);
  }

  async #runProbe(): Promise<ServiceHealth> {
    const stopped = this.#abort.signal;
    const timeout = AbortSignal.timeout(this.#probeTimeoutMs);
    try {
      await this.#probe(AbortSignal.any([stopped, timeout]));
      this.#set({ state: 'reachable', checkedAt: this.#now() });
    } catch (error) {
      if (stopped.aborted) return this.#status;
      if (timeout.aborted) {
        this.#set({
          state: 'unreachable',
          reason: `the service did not answer within ${Math.round(this.#probeTimeoutMs / 1000)} s`,
          checkedAt: this.#now(),
        });
      } else {
        this.#set(
          healthOf({ error }, this.#now()) ?? {
            state: 'failing',
            reason: error instanceof Error ? error.message : String(error),
            checkedAt: this.#now(),
          },
        );
      }
    }
    return this.#status;
  }

  #set(next: ServiceHealth): void {
    const previous = this.#status;
    this.#status = next;
    // Every check updates checkedAt; listeners hear of changes of state or reason only.
    if (previous.state !== next.state || previous.reason !== next.reason) this.emit('change', next);
  }
}
