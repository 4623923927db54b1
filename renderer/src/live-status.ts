// The header's "Live" dot: green only while the page is connected to Asset Studio and the service (or the
// embedded engine) answered its last check; otherwise why not, in words (the same reason as the offline banner).
import type { ServiceHealth } from '../../shared/bridge/contract.ts';

export type LiveKind = 'open' | 'checking' | 'offline' | 'connecting' | 'closed';

export interface LiveStatus {
  kind: LiveKind;
  text: string;
  /** The reason, for the tooltip and screen readers. */
  title: string;
}

/** The page's own event connection to Asset Studio (the transport's ConnectionState). */
type PageConnection = 'connecting' | 'open' | 'closed';

export function liveStatus(s: {
  connection: PageConnection;
  service?: ServiceHealth | undefined;
  serviceDown?: string | undefined;
}): LiveStatus {
  if (s.connection === 'connecting')
    return { kind: 'connecting', text: 'Connecting…', title: 'Connecting to Asset Studio' };
  if (s.connection !== 'open')
    return {
      kind: 'closed',
      text: 'Reconnecting…',
      title: 'The page lost its connection to Asset Studio: reconnecting',
    };
  if (s.serviceDown !== undefined)
    return { kind: 'offline', text: 'Offline', title: `The service cannot be reached: ${s.serviceDown}` };
  switch (s.service?.state) {
    case 'reachable':
      return {
        kind: 'open',
        text: 'Live',
        title: `The service answered${s.service.checkedAt ? ` at ${new Date(s.service.checkedAt).toLocaleTimeString()}` : ''}; updates are live`,
      };
    case 'unreachable':
      return {
        kind: 'offline',
        text: 'Offline',
        title: `The service cannot be reached: ${s.service.reason ?? 'no answer'}`,
      };
    case 'failing':
      return {
        kind: 'offline',
        text: 'Service error',
        title: `The service answers with errors: ${s.service.reason ?? 'unknown'}`,
      };
    default:
      return { kind: 'checking', text: 'Checking…', title: 'Checking that the service answers' };
  }
}
