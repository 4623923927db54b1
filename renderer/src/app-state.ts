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

/** How long an info or a warning stays before it closes by itself; an error stays until dismissed. */
export const NOTICE_MS: Readonly<Record<Notice['level'], number | undefined>> = {
  info: 8000,
  warning: 15000,
  error: undefined,
};
/** At most this many infos and warnings are shown (the oldest go first); errors are never dropped. */
const MAX_PASSING = 3;

/** Shows a notice in the stack above the screen (in the page's flow: it never covers an error or a button). */
export function pushNotice(level: Notice['level'], message: string): void {
  const notice = { id: nextNotice++, level, message };
  notices.update((list) => {
    const next = [...list.filter((n) => !(n.level === level && n.message === message)), notice]; // the same message once
    const passing = next.filter((n) => n.level !== 'error');
    const dropped = new Set(passing.slice(0, Math.max(0, passing.length - MAX_PASSING)).map((n) => n.id));
    return next.filter((n) => !dropped.has(n.id));
  });
  const ms = NOTICE_MS[level];
  if (ms !== undefined) setTimeout(() => dismissNotice(notice.id), ms);
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
    serviceDown:
      service.state === 'unreachable'
        ? (service.reason ?? 'no answer')
        : service.state === 'reachable'
          ? undefined
          : s.serviceDown,
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
