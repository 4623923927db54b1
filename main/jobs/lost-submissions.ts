// Creates whose sender died while they were on the wire (kill -9, a crash, a power cut): the service may have made
// and charged what they asked, but no answer was ever read. Their journal rows, still `pending` with a writer that
// no longer runs (main/store/journal.ts, recoverAfterCrash), become `unknown`, and each becomes a job in the
// `submission_unknown` state, so the library and `jobs` show it until `reconcile` finds its session at the
// service (reconcile.ts) or the user abandons it. Run by every process of the data folder when it opens it, and
// by `reconcile` before it looks at the journal.
import { ENDPOINTS } from '../../shared/contract/index.ts';
import { refOfCreate } from '../../shared/kinds/index.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';

export const LOST_NOTE =
  'The app stopped while this create was being sent: the service may have made (and charged) it. ' +
  'Run "asset-studio reconcile" to find it at the service; it is never sent again on its own.';

/** The jobs made for the lost creates found now (a row that has a job already gets none). */
/** The origin of such a job is unknown (null): the process that sent it may have used another connection. */
export function recoverLostSubmissions(store: Store, options: { now: number }): JobRecord[] {
  const jobs: JobRecord[] = [];
  for (const entry of store.journal.recoverAfterCrash(options.now)) {
    if (entry.jobId !== null) continue;
    const expected = refOfCreate(entry.endpoint, { params: entry.params, body: entry.body }, {});
    const job = store.transaction(() => {
      const made = store.jobs.insert({
        kind: expected?.kind ?? 'image_to_3d',
        step: expected?.step ?? null,
        texts: expected?.texts ?? null,
        label: entry.label ?? `${ENDPOINTS[entry.endpoint].summary} (answer lost)`,
        operationId: entry.operationId,
        state: 'submission_unknown',
        rawStatus: 'submission_unknown',
        now: options.now,
      });
      store.journal.linkJob(entry.operationId, made.id);
      return store.jobs.updateStatus(made.id, {
        state: 'submission_unknown',
        rawStatus: 'submission_unknown',
        final: false,
        error: LOST_NOTE,
        now: options.now,
      });
    });
    jobs.push(job);
  }
  return jobs;
}
