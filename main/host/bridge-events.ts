// The events the bridge sends the UI (shared/bridge/contract.ts EVENTS): every payload redacted with the
// keys the app knows, progress thinned to a few a second, a notice said once while it repeats; and the
// events of a set of services (tracker, cache, reachability) forwarded as bridge events.
import { EventEmitter } from 'node:events';
import type { EventName, EventPayload } from '../../shared/bridge/contract.ts';
import { redactSecrets } from '../api/redact.ts';
import type { Services } from '../app/services.ts';
import type { JobRecord } from '../store/jobs.ts';
import { toCachedOutput, toJobView } from './views.ts';

const PROGRESS_INTERVAL_MS = 100;

/** The value itself when it holds no secret (the usual case, cheap); otherwise a redacted copy. */
export function redacted<T>(value: T, secrets: ReadonlySet<string>): T {
  if (value === undefined || secrets.size === 0) return value;
  const text = JSON.stringify(value);
  const safe = redactSecrets(text, [...secrets]);
  return safe === text ? value : (JSON.parse(safe) as T);
}

export class BridgeEvents {
  readonly #emitter = new EventEmitter();
  readonly #secrets: ReadonlySet<string>;
  readonly #lastProgress = new Map<string, number>();
  #lastNotice = '';

  /** `secrets`: the live set of keys to redact (it grows as keys are met). */
  constructor(secrets: ReadonlySet<string>) {
    this.#secrets = secrets;
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.#emitter.on(event, listener);
    return () => this.#emitter.off(event, listener);
  }

  /** Every event, for transports that forward them all (the web host's socket, Electron's webContents). */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void {
    this.#emitter.on('*', listener);
    return () => this.#emitter.off('*', listener);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const safe = redacted(payload, this.#secrets);
    this.#emitter.emit(event, safe);
    this.#emitter.emit('*', event, safe);
  }

  notice(level: 'info' | 'warning' | 'error', message: string): void {
    if (message === this.#lastNotice) return; // a read failing again and again is said once
    this.#lastNotice = message;
    this.emit('notice', { level, message });
  }

  /** Throttles progress events of one key to one per PROGRESS_INTERVAL_MS; the last one always passes. */
  due(key: string, last: boolean): boolean {
    const now = Date.now();
    if (!last && now - (this.#lastProgress.get(key) ?? 0) < PROGRESS_INTERVAL_MS) return false;
    if (last) this.#lastProgress.delete(key);
    else this.#lastProgress.set(key, now);
    return true;
  }
}

/** Forwards the events of a set of services; returns the function that stops it. */
export function forwardServiceEvents(
  s: Services,
  events: BridgeEvents,
  cacheUrl: (sessionId: string, kind: string) => string,
): () => void {
  const job = (record: JobRecord) => events.emit('job', toJobView(record));
  const progress = (p: { sessionId: string; kind: string; bytes: number; total: number | undefined }) => {
    if (events.due(`${p.sessionId}\n${p.kind}`, p.bytes === p.total))
      events.emit('cache.progress', { ...p, total: p.total ?? null });
  };
  const output = (entry: Parameters<typeof toCachedOutput>[0]) =>
    events.emit('cache.output', toCachedOutput(entry, cacheUrl, s.cache.formatOf(entry)));
  const readError = (_record: JobRecord, error: Error) => {
    s.health.record({ error });
    events.notice('warning', error.message);
  };
  /** The database failed under the tracker (a full disk): said once, in words; the jobs are read again later. */
  const storeError = (error: unknown) => events.notice('error', error instanceof Error ? error.message : String(error));
  const health = (status: EventPayload<'service'>) => events.emit('service', status);
  s.health.on('change', health);
  /** The service answered a read of a job: the periodic reachability check can wait. */
  const answered = () => s.health.record({ ok: true });
  const tracker = [
    ['job-added', job],
    ['progress', job],
    ['finished', job],
    ['failed', job],
    ['read-error', readError],
    ['read-answered', answered],
    ['store-error', storeError],
  ] as const;
  for (const [event, listener] of tracker) s.tracker.on(event, listener as never);
  s.cache.on('progress', progress);
  s.cache.on('downloaded', output);
  s.cache.on('failed', output);
  return () => {
    s.health.off('change', health);
    for (const [event, listener] of tracker) s.tracker.off(event, listener as never);
    s.cache.off('progress', progress);
    s.cache.off('downloaded', output);
    s.cache.off('failed', output);
  };
}
