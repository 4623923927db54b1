// The composition root on a data folder left by a crash: creates that were being sent show up as jobs
// whose submission is unknown, so the user sees them and can reconcile them.
import { describe, expect, it } from 'vitest';
import { createServices } from '../../main/app/services.ts';
import { dataDirWithLostCreate } from './lost-create.ts';

describe('services after a crash', () => {
  it('turns creates whose writer is gone into submission_unknown jobs, and leaves a live writer its own', async () => {
    const dataDir = dataDirWithLostCreate((store) =>
      store.journal.begin({
        operationId: 'op_recent',
        endpoint: 'createTextToImage',
        params: {},
        body: { prompt: 'a chair' },
        now: Date.now(),
      }),
    );

    const services = await createServices({ dataDir }, { engineSpeed: 100 });
    try {
      const lost = services.store.jobs.list({}).find((j) => j.operationId === 'op_lost');
      expect(lost).toMatchObject({ kind: 'text_to_image', state: 'submission_unknown', remoteId: null });
      expect(lost!.label).toMatch(/answer lost/);
      expect(services.store.journal.get('op_lost')).toMatchObject({ state: 'unknown', jobId: lost!.id });
      // A pending entry of a process that still runs (this one) is still being sent: left alone.
      expect(services.store.journal.get('op_recent')!.state).toBe('pending');
    } finally {
      await services.close();
    }
  });
});
