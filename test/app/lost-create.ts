// A data folder as a crash leaves it: the database holds a create ('a lamp', operation op_lost) sent ten
// minutes ago whose answer never came.
import { databasePath, openDatabase, type Store } from '../../main/store/database.ts';
import { tempDir } from '../helpers.ts';
import { sentCreate } from '../store/sent-create.ts';

/** That data folder (removed after the test); `more` adds to its database before it is closed. */
export function dataDirWithLostCreate(more?: (store: Store) => void): string {
  const dataDir = tempDir();
  const store = openDatabase(databasePath(dataDir));
  const tenMinutesAgo = Date.now() - 10 * 60_000;
  sentCreate(store, 'op_lost', { endpoint: 'createTextToImage', body: { prompt: 'a lamp' } }, tenMinutesAgo);
  more?.(store);
  store.close();
  return dataDir;
}
