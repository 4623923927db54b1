// Where a job was made (migration 4): 'local-engine' or 'service', null for jobs recorded before.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/database.ts';
import { olderDatabase } from './older-database.ts';

describe('migration 4: job origin', () => {
  it('brings a version-3 database to the current version: its jobs keep their rows, with an unknown origin', () => {
    const path = olderDatabase(
      3,
      `INSERT INTO jobs (id, kind, label, name, state, raw_status, final, created_at, updated_at, last_change_at)
       VALUES ('job_old', 'text_to_image', 'red barrel', 'Barrel', 'succeeded', 'completed', 1, 5, 5, 5)`,
    );

    const store = openDatabase(path);
    try {
      expect(store.jobs.require('job_old')).toMatchObject({
        label: 'red barrel',
        name: 'Barrel',
        state: 'succeeded',
        createdAt: 5,
        origin: null,
      });
      const made = store.jobs.insert({
        kind: 'text_to_image',
        label: 'blue barrel',
        remoteId: 'r1',
        origin: 'local-engine',
        now: 6,
      });
      expect(store.jobs.require(made.id).origin).toBe('local-engine');
    } finally {
      store.close();
    }
  });

  it('records a job without an origin as unknown, and refuses an origin it does not know in the column itself', () => {
    const store = openDatabase(':memory:');
    try {
      expect(store.jobs.insert({ kind: 'style', label: 'style', remoteId: 'st', now: 1 }).origin).toBeNull();
      expect(
        store.jobs.insert({ kind: 'style', label: 'style', remoteId: 'st2', origin: 'service', now: 1 }).origin,
      ).toBe('service');
      expect(() =>
        store.jobs.insert({ kind: 'style', label: 'x', remoteId: 'st3', origin: 'elsewhere' as never, now: 1 }),
      ).toThrow(/CHECK constraint/);
    } finally {
      store.close();
    }
  });
});
