// State shared by every screen: app info, settings, the service's reachability, notices.
import type { CommandOutput, EventPayload, ServiceHealth, SettingsView } from '../../shared/bridge/contract.ts';
import { getBridge, type ConnectionState } from '../bridge/index.ts';
import { Store } from './store.ts';
import type { ShownError } from './util.ts';

export interface AppState {
  info?: CommandOutput<'app.info'>;
  infoError?: ShownError;
  settings?: SettingsView;
  /** Set when the service could not be reached (the app then works from its cache). */
  serviceDown?: string;
  /** The last reachability check of main (the header's Live dot). */
  service?: ServiceHealth;
  credits?: number;
  connection: ConnectionState;
  /** The library has shown its first page of jobs (with app.info: the app is ready). */
  jobsShown: boolean;
  /** Bumped when the event connection comes back: lists read again what they may have missed. */
  resync: number;
}

export const appState = new Store<AppState>({ connection: 'connecting', jobsShown: false, resync: 0 });

export function patchApp(patch: Partial<AppState>): void {
  appState.update((s) => ({ ...s, ...patch }));
}

export interface Notice {
  id: number;
  level: EventPayload<'notice'>['level'];
  message: string;
}

export const notices = new Store<Notice[]>([]);
let nextNotice = 1;

export function pushNotice(level: Notice['level'], message: string): void {
  const notice = { id: nextNotice++, level, message };
  notices.update((list) => [...list.slice(-4), notice]);
  if (level === 'info') setTimeout(() => dismissNotice(notice.id), 8000);
}

export function dismissNotice(id: number): void {
  notices.update((list) => list.filter((n) => n.id !== id));
}

/** Errors whose code says the service (not this app) could not be reached. */
export function isServiceUnreachable(error: { code?: string } | undefined): boolean {
  return !!error?.code && /network|unreachable|timeout|offline|connect/i.test(error.code);
}

/** A reachability check from main: an unreachable service shows the offline banner, an answer clears it. */
export function applyServiceHealth(service: ServiceHealth): void {
  appState.update((s) => ({
    ...s,
    service,
    serviceDown: service.state === 'unreachable' ? (service.reason ?? 'no answer') : service.state === 'reachable' ? undefined : s.serviceDown,
  }));
}

/** Reads app.info again (after a profile or key change: the mode and credits may differ). */
export function refreshInfo(): void {
  getBridge()
    .call('app.info', {})
    .then((info) => {
      patchApp({ info, infoError: undefined, credits: info.credits, serviceDown: undefined });
      applyServiceHealth(info.service);
    })
    .catch((e: unknown) => patchApp({ infoError: { message: e instanceof Error ? e.message : String(e) } }));
}
