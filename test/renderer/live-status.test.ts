// The header's Live dot (renderer/src/live-status.ts): green only while the page is connected and the
// service answered; never green while the offline banner shows.
import { describe, expect, it } from 'vitest';
import { liveStatus } from '../../renderer/src/live-status.ts';

describe('liveStatus', () => {
  it('is Live only when the page is connected and the service answered', () => {
    expect(liveStatus({ connection: 'open', service: { state: 'reachable', checkedAt: 1 } }).kind).toBe('open');
    expect(liveStatus({ connection: 'open', service: { state: 'unknown' } })).toMatchObject({
      kind: 'checking',
      text: 'Checking…',
    });
    expect(liveStatus({ connection: 'open' }).kind).toBe('checking');
    expect(liveStatus({ connection: 'closed', service: { state: 'reachable' } })).toMatchObject({
      kind: 'closed',
      text: 'Reconnecting…',
    });
    expect(liveStatus({ connection: 'connecting', service: { state: 'reachable' } }).kind).toBe('connecting');
  });

  it('is off, with the reason, whenever the offline banner shows or the service fails', () => {
    expect(
      liveStatus({ connection: 'open', service: { state: 'reachable' }, serviceDown: 'refused the connection' }),
    ).toEqual({
      kind: 'offline',
      text: 'Offline',
      title: 'The service cannot be reached: refused the connection',
    });
    expect(
      liveStatus({ connection: 'open', service: { state: 'unreachable', reason: 'no answer within 10 s' } }),
    ).toMatchObject({ kind: 'offline', title: expect.stringContaining('no answer within 10 s') });
    expect(liveStatus({ connection: 'open', service: { state: 'failing', reason: 'HTTP 401' } })).toMatchObject({
      kind: 'offline',
      text: 'Service error',
    });
  });
});
