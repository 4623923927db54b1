// One count for a batch (shared/batch-counts.ts): the queue's table and its toast both say it, so a file
// the browser could not send, one rejected and one the service refused are all "with a problem" in both.
import { describe, expect, it } from 'vitest';
import { countBatch, countJobs, describeCounts, describeJobs, jobsFinished } from '../../shared/batch-counts.ts';

describe('batch counts', () => {
  it('counts every file of the batch, problems of all kinds together', () => {
    const counts = countBatch([
      'submitted',
      'submitted',
      'send_failed',
      'rejected',
      'failed',
      'cancelled',
      'uploading',
    ]);
    expect(counts).toEqual({ total: 7, submitted: 2, problems: 3, cancelled: 1, going: 1 });
    expect(describeCounts(counts)).toBe('2 of 7 files submitted, 3 with a problem, 1 cancelled, 1 still going');
  });

  it('says only what is there', () => {
    expect(describeCounts(countBatch(['submitted']))).toBe('1 of 1 file submitted');
  });
});

describe('the jobs of a batch', () => {
  it('is not finished while one of its jobs is queued or running, nor while a job is not known yet', () => {
    const going = countJobs([
      { state: 'queued', final: false },
      { state: 'running', final: false },
      { state: 'succeeded', final: true },
      undefined,
    ]);
    expect(going).toEqual({ total: 4, queued: 2, running: 1, completed: 1, failed: 0, removed: 0 });
    expect(jobsFinished(going)).toBe(false);
    expect(describeJobs(going)).toBe('4 jobs (2 queued, 1 running, 1 completed)');
  });

  it('is finished once every job is final, the failed and cancelled ones counted as failed', () => {
    const done = countJobs([
      { state: 'succeeded', final: true },
      { state: 'failed', final: true },
      { state: 'cancelled', final: true },
    ]);
    expect(jobsFinished(done)).toBe(true);
    expect(describeJobs(done)).toBe('3 jobs (1 completed, 2 failed)');
    expect(describeJobs(countJobs([]))).toBe('no job');
  });

  it('counts a job deleted from the library as removed, not failed, and the batch as finished', () => {
    const counts = countJobs([{ state: 'succeeded', final: true }, null]);
    expect(counts).toEqual({ total: 2, queued: 0, running: 0, completed: 1, failed: 0, removed: 1 });
    expect(jobsFinished(counts)).toBe(true);
    expect(describeJobs(counts)).toBe('2 jobs (1 completed, 1 removed)');
  });
});
