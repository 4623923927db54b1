// What the user said of a job's model (migration 6): its real height and the review board's decision, kept per
// job, gone with the job; a version-5 database is brought up with its jobs and no reviews.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/database.ts';
import { olderDatabase } from './older-database.ts';

describe('migration 6: job reviews', () => {
  it('brings a version-5 database up: its jobs stay, unreviewed, and can be reviewed', () => {
    const path = olderDatabase(
      5,
      `INSERT INTO jobs (id, kind, label, state, raw_status, final, created_at, updated_at, last_change_at)
       VALUES ('job_old', 'image_to_3d', 'mug.png', 'succeeded', 'completed', 1, 5, 5, 5)`,
    );
    const store = openDatabase(path);
    try {
      expect(store.reviews.get('job_old')).toBeUndefined();
      expect(store.reviews.setHeight('job_old', 0.12, 7)).toEqual({
        jobId: 'job_old',
        heightM: 0.12,
        decision: null,
        updatedAt: 7,
      });
      // The decision and the height are kept apart: setting one leaves the other.
      expect(store.reviews.setDecision('job_old', 'approved', 8)).toMatchObject({
        heightM: 0.12,
        decision: 'approved',
      });
      expect(store.reviews.setHeight('job_old', null, 9)).toMatchObject({ heightM: null, decision: 'approved' });
      expect([...store.reviews.all().keys()]).toEqual(['job_old']);
    } finally {
      store.close();
    }
  });

  it('refuses a review of a job that is not there or a height that is no size, and forgets it with its job', () => {
    const store = openDatabase(':memory:');
    try {
      expect(() => store.reviews.setHeight('job_none', 1)).toThrow(/FOREIGN KEY/);
      const job = store.jobs.insert({ kind: 'image_to_3d', label: 'mug.png', remoteId: 'r1', now: 1 });
      expect(() => store.reviews.setHeight(job.id, 0)).toThrow(/CHECK/);
      store.reviews.setDecision(job.id, 'rejected');
      store.jobs.delete(job.id);
      expect(store.reviews.get(job.id)).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
