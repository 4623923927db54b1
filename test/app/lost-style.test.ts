// A style create whose answer never came (the app stopped while sending it) is shown as a style job, as
// its kind says, not as an image-to-3D one.
import { describe, expect, it } from 'vitest';
import { createServices } from '../../main/app/services.ts';
import { databasePath, openDatabase } from '../../main/store/database.ts';
import { tempDir } from '../helpers.ts';
import { sentCreate } from '../store/sent-create.ts';

describe('services after a crash while a style was sent', () => {
  it('shows the lost style create as a style job whose submission is unknown', async () => {
    const dataDir = tempDir();
    const store = openDatabase(databasePath(dataDir));
    const tenMinutesAgo = Date.now() - 10 * 60_000;
    sentCreate(
      store,
      'op_style',
      { endpoint: 'createStyle', body: { zip_url: 'https://example.com/s.zip', description: 'ink' } },
      tenMinutesAgo,
    );
    store.close();

    const services = await createServices({ dataDir }, { engineSpeed: 100 });
    try {
      const lost = services.store.jobs.list({}).find((j) => j.operationId === 'op_style');
      expect(lost).toMatchObject({ kind: 'style', state: 'submission_unknown', remoteId: null });
    } finally {
      await services.close();
    }
  });
});
