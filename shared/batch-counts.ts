// The counts of a batch of files, from its items' states, and their sentence: the queue's table, its toast
// and main's `batch.done` all count with this one function, so they always say the same.

/** Every state an item of a batch can be in: the renderer's own (before main has the file), then main's. */
export const BATCH_ITEM_PHASES = [
  'waiting',
  'sending',
  'send_failed',
  'inspecting',
  'rejected',
  'queued',
  'uploading',
  'submitted',
  'failed',
  'cancelled',
] as const;
export type BatchItemPhase = (typeof BATCH_ITEM_PHASES)[number];

/** Not sent to the app, rejected by the check, or refused by the service. */
const PROBLEMS: readonly BatchItemPhase[] = ['send_failed', 'rejected', 'failed'];

export interface BatchCounts {
  /** Every file of the batch. */
  total: number;
  submitted: number;
  /** Files that were not submitted because of a problem with them or at the service. */
  problems: number;
  cancelled: number;
  /** Files still being sent, checked or submitted. */
  going: number;
}

export function countBatch(phases: readonly BatchItemPhase[]): BatchCounts {
  const of = (wanted: readonly BatchItemPhase[]) => phases.filter((p) => wanted.includes(p)).length;
  const submitted = of(['submitted']);
  const problems = of(PROBLEMS);
  const cancelled = of(['cancelled']);
  return {
    total: phases.length,
    submitted,
    problems,
    cancelled,
    going: phases.length - submitted - problems - cancelled,
  };
}

/** "3 of 5 files submitted, 1 with a problem, 1 cancelled" (and how many are still going). */
export function describeCounts(c: BatchCounts): string {
  const parts = [`${c.submitted} of ${c.total} file${c.total === 1 ? '' : 's'} submitted`];
  if (c.problems) parts.push(`${c.problems} with a problem`);
  if (c.cancelled) parts.push(`${c.cancelled} cancelled`);
  if (c.going) parts.push(`${c.going} still going`);
  return parts.join(', ');
}
