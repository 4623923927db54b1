// The stand-in badge follows where a job was made (#15), not the app's current connection.
import { describe, expect, it } from 'vitest';
import { madeByLocalEngine } from '../../renderer/src/job-origin.ts';

describe('madeByLocalEngine', () => {
  it('is true for a local-engine job whatever the connection, false for a service job even while on the engine', () => {
    expect(madeByLocalEngine('local-engine', 'service')).toBe(true);
    expect(madeByLocalEngine('local-engine', 'local-engine')).toBe(true);
    expect(madeByLocalEngine('service', 'local-engine')).toBe(false);
    expect(madeByLocalEngine('service', 'service')).toBe(false);
  });

  it('falls back to the current connection for a job of unknown origin (recorded before origins were)', () => {
    expect(madeByLocalEngine(null, 'local-engine')).toBe(true);
    expect(madeByLocalEngine(null, 'service')).toBe(false);
    expect(madeByLocalEngine(undefined, undefined)).toBe(false);
  });
});
