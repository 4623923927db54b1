// A create as the journal records it once it has gone out: begun and marked sent, its answer not come (yet).
// Crash and lost-answer tests start from one.
import type { Store } from '../../main/store/database.ts';
import type { JournalEntry, NewOperation } from '../../main/store/journal.ts';

/** Begins `op` in the journal (params {} unless given) and marks it sent at its `now`: the entry as sent. */
export function sentCreate(
  store: Pick<Store, 'journal'>,
  op: Omit<NewOperation, 'params' | 'operationId'> & { operationId: string; params?: NewOperation['params'] },
): JournalEntry {
  store.journal.begin({ params: {}, ...op });
  return store.journal.markSent(op.operationId, op.now);
}
