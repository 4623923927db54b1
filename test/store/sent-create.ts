// A create as the journal records it once it has gone out: begun and marked sent, its answer not come (yet).
// Crash and lost-answer tests start from one.
import type { Store } from '../../main/store/database.ts';
import type { JournalEntry, NewOperation } from '../../main/store/journal.ts';

/** Begins the operation `operationId` of `request` (params {} unless given) and marks it sent, both at `now`. */
export function sentCreate(
  store: Pick<Store, 'journal'>,
  operationId: string,
  request: Pick<NewOperation, 'endpoint' | 'body'> & Partial<Pick<NewOperation, 'params'>>,
  now: number,
): JournalEntry {
  store.journal.begin({ params: {}, ...request, operationId, now });
  return store.journal.markSent(operationId, now);
}
