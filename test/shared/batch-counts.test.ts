// One count for a batch (shared/batch-counts.ts): the queue's table and its toast both say it, so a file
// the browser could not send, one rejected and one the service refused are all "with a problem" in both.
import { describe, expect, it } from 'vitest';
import { countBatch, describeCounts } from '../../shared/batch-counts.ts';

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
