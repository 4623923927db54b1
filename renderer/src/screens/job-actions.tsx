// Cancel, retry and reconcile of one job.
import { useState } from 'preact/hooks';
import type { CommandOutput, JobView } from '../../../shared/bridge/contract.ts';
import { getBridge } from '../../bridge/index.ts';
import { pushNotice } from '../app-state.ts';
import { ErrorBox } from '../components/ui.tsx';
import { useAction } from '../use-action.ts';
import { formatTime, jobTitle } from '../util.ts';

type Reconcile = CommandOutput<'jobs.reconcile'>['results'][number];

export function JobActions({ job }: { job: JobView }) {
  const bridge = getBridge();
  const { busy, error, run } = useAction();
  const [reconcile, setReconcile] = useState<Reconcile | undefined>();
  const unknown = job.state === 'submission_unknown';
  const canCancel = !job.final && !unknown && job.state !== 'cancelled';
  const canRetry = job.state === 'failed' || job.state === 'cancelled';
  const title = jobTitle(job);
  return (
    <div class="actions">
      {canCancel && (
        <button type="button" disabled={busy} aria-label={`Cancel ${title}`} onClick={() => run(() => bridge.call('jobs.cancel', { id: job.id }))}>
          Cancel
        </button>
      )}
      {canRetry && (
        <button type="button" disabled={busy} aria-label={`Retry ${title}`} onClick={() => run(async () => {
          const retried = await bridge.call('jobs.retry', { id: job.id });
          pushNotice('info', `Sent again as a new job: ${jobTitle(retried)}.`);
        })}>
          Retry
        </button>
      )}
      {unknown && job.operationId && (
        <button type="button" disabled={busy} aria-label={`Reconcile ${title}`} onClick={() => run(async () => {
          const r = await bridge.call('jobs.reconcile', { operationId: job.operationId! });
          setReconcile(r.results[0]);
        })}>
          Reconcile…
        </button>
      )}
      {reconcile && unknown && (
        <fieldset class="reconcile" aria-label={`Reconcile ${title}`}>
          <p>
            {reconcile.candidates && reconcile.candidates.length > 0
              ? 'The service may have created it. Pick the session it made, or abandon it if none is:'
              : `No matching session was found (${reconcile.outcome}). Abandon it if you are sure nothing was created, or try again later.`}
          </p>
          <ul>
            {(reconcile.candidates ?? []).map((c) => (
              <li key={c.sessionCode}>
                <button type="button" disabled={busy} onClick={() => run(() => bridge.call('jobs.reconcile', { operationId: job.operationId!, sessionCode: c.sessionCode }).then(() => setReconcile(undefined)))}>
                  Attach <code>{c.sessionCode}</code>
                </button>{' '}
                <span class="muted">
                  {formatTime(c.createdAt)} · {c.status}
                </span>
              </li>
            ))}
          </ul>
          <button type="button" class="danger" disabled={busy} onClick={() => run(() => bridge.call('jobs.reconcile', { operationId: job.operationId!, abandon: true }).then(() => setReconcile(undefined)))}>
            Abandon
          </button>
        </fieldset>
      )}
      <ErrorBox error={error} />
    </div>
  );
}
