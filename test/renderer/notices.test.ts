// The notices (toasts) of renderer/src/app-state.ts: infos and warnings close by themselves, at most three
// of them are shown at once; errors stay until dismissed and are never pushed out by other notices.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissNotice, NOTICE_MS, notices, pushNotice } from '../../renderer/src/app-state.ts';

beforeEach(() => {
  vi.useFakeTimers();
  notices.set([]);
});
afterEach(() => vi.useRealTimers());

const shown = () => notices.get().map((n) => `${n.level}:${n.message}`);

describe('notices', () => {
  it('close infos and warnings by themselves, keep errors until dismissed', () => {
    pushNotice('error', 'E1');
    pushNotice('info', 'I1');
    pushNotice('warning', 'W1');
    vi.advanceTimersByTime(NOTICE_MS.info!);
    expect(shown()).toEqual(['error:E1', 'warning:W1']);
    vi.advanceTimersByTime(NOTICE_MS.warning!);
    expect(shown()).toEqual(['error:E1']);
    vi.advanceTimersByTime(10 * 60_000);
    expect(shown()).toEqual(['error:E1']);
    dismissNotice(notices.get()[0]!.id);
    expect(shown()).toEqual([]);
  });

  it('never push an error out: many notices drop the oldest infos only', () => {
    for (let i = 1; i <= 6; i++) pushNotice('error', `E${i}`);
    for (let i = 1; i <= 5; i++) pushNotice('info', `I${i}`);
    expect(shown()).toEqual([
      'error:E1',
      'error:E2',
      'error:E3',
      'error:E4',
      'error:E5',
      'error:E6',
      'info:I3',
      'info:I4',
      'info:I5',
    ]);
  });

  it('show the same message once', () => {
    pushNotice('warning', 'same');
    pushNotice('warning', 'same');
    expect(shown()).toEqual(['warning:same']);
  });
});
