// A create as the journal records it once it has gone out: begun and marked sent, its answer not come (yet).
// Crash and lost-answer tests start from one.
import type { Store } from '../../main/store/database.ts';
import type { JournalEntry, NewOperation } from '../../main/store/journal.ts';

/** A writer no process is (a pid above any the system gives): the process that sent the create died. */
export const GONE_WRITER = `${2 ** 30}@00000000-0000-0000-0000-000000000000:1`;

/**
 * Begins the operation `operationId` of `request` (params {} unless given) and marks it sent, both at `now`. Its
 * writer is GONE_WRITER unless `request.writer` names another (undefined there: this process).
 */
export function sentCreate(
  store: Pick<Store, 'journal'>,
  operationId: string,
  request: Pick<NewOperation, 'endpoint' | 'body'> & Partial<Pick<NewOperation, 'params' | 'writer'>>,
  now: number,
): JournalEntry {
  store.journal.begin({ params: {}, writer: GONE_WRITER, ...request, operationId, now });
  return store.journal.markSent(operationId, now);
}
