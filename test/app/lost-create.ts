// A data folder as a crash leaves it: the database holds a create ('a lamp', operation op_lost) sent ten
// minutes ago whose answer never came.
import { databasePath, openDatabase, type Store } from '../../main/store/database.ts';
import { tempDir } from '../helpers.ts';

/** That data folder (removed after the test); `more` adds to its database before it is closed. */
export function dataDirWithLostCreate(more?: (store: Store) => void): string {
  const dataDir = tempDir();
  const store = openDatabase(databasePath(dataDir));
  const tenMinutesAgo = Date.now() - 10 * 60_000;
  store.journal.begin({
    operationId: 'op_lost',
    endpoint: 'createTextToImage',
    params: {},
    body: { prompt: 'a lamp' },
    now: tenMinutesAgo,
  });
  store.journal.markSent('op_lost', tenMinutesAgo);
  more?.(store);
  store.close();
  return dataDir;
}
