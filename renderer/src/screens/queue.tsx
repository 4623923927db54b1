// The queue: dropped-file batches with per-file progress, then the jobs in progress and those that need
// attention (failed, cancelled, submission unknown) with cancel, retry and reconcile.
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeCounts, describeJobs, type BatchJobSeen } from '../../../shared/batch-counts.ts';
import type { JobView } from '../../../shared/bridge/contract.ts';
import { getBridge } from '../../bridge/index.ts';
import { appState } from '../app-state.ts';
import {
  batchCounts,
  batchJobCounts,
  batchJobs,
  batchStage,
  batches,
  cancelBatch,
  clearFinished,
  loadKeptBatches,
  offerBatch,
  type ItemPhase,
  type QueueBatch,
} from '../batch.ts';
import { ErrorBox, Progress, Section, TableHead } from '../components/ui.tsx';
import { useStore } from '../store.ts';
import { formatBytes, formatTime, STATE_LABELS, toShownError, type ShownError } from '../util.ts';
import { JobRow } from './library.tsx';

const PHASE_LABELS: Record<ItemPhase, string> = {
  waiting: 'Waiting',
  sending: 'Sending to the app',
  send_failed: 'Not sent',
  inspecting: 'Checking the file',
  rejected: 'Rejected',
  queued: 'Queued',
  uploading: 'Uploading',
  submitted: 'Submitted',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function Queue() {
  return (
    <>
      <h1>Queue</h1>
      <Batches />
      <ActiveJobs />
    </>
  );
}

function Batches() {
  const list = useStore(batches);
  const jobs = useStore(batchJobs);
  const { resync } = useStore(appState);
  const input = useRef<HTMLInputElement>(null);
  // The batches main kept (this page's earlier ones after a reload, those of a run before a restart).
  useEffect(() => void loadKeptBatches(), [resync]);
  return (
    <Section
      title="Dropped files"
      id="batches"
      actions={
        <div class="actions">
          <button type="button" onClick={() => input.current?.click()}>
            Add files…
          </button>
          {list.some((b) => batchStage(b, jobs) === 'finished') && (
            <button type="button" onClick={() => void clearFinished()}>
              Clear finished
            </button>
          )}
        </div>
      }
    >
      <input
        ref={input}
        id="batch-files"
        class="visually-hidden"
        type="file"
        multiple
        accept="image/png,image/jpeg,image/webp,.fbx,.zip"
        aria-label="Files for a batch"
        tabIndex={-1}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          offerBatch(files);
        }}
      />
      <p class="hint">
        Drop images (for image to 3D), FBX files or zips of FBX (for animation), or folders of them, anywhere in the
        window, or use Add files. You choose the options and see the total cost before anything is sent. Each file is
        checked first; a bad file is reported and the others go on.
      </p>
      {list.length === 0 && <p class="muted">No batch yet.</p>}
      {list.map((b) => (
        <BatchView key={b.key} batch={b} jobs={jobs} />
      ))}
    </Section>
  );
}

/** What follows a batch's file counts: nothing while files are sent, then its jobs, submitted or finished. */
const STAGE_TEXT = { submitting: '', submitted: ' · ', finished: ' · finished · ' } as const;

function BatchView({ batch, jobs }: { batch: QueueBatch; jobs: ReturnType<typeof batchJobs.get> }) {
  const counts = batchCounts(batch);
  const stage = batchStage(batch, jobs);
  const running = !batch.filesDone;
  return (
    <section
      class="batch"
      aria-label={`Batch of ${batch.items.length} files`}
      data-batch-id={batch.batchId ?? ''}
      data-stage={stage}
    >
      <div class="batch-head">
        <strong>
          {batch.items.length} file{batch.items.length === 1 ? '' : 's'}
        </strong>
        <span class="muted">{formatTime(batch.createdAt)}</span>
        <span aria-live="polite" class="batch-counts">
          {describeCounts(counts)}
          {stage !== 'submitting' && STAGE_TEXT[stage] + describeJobs(batchJobCounts(batch, jobs))}
        </span>
        {running && batch.batchId && (
          <button type="button" onClick={() => cancelBatch(batch)}>
            Cancel batch
          </button>
        )}
      </div>
      {batch.error && <p class="job-error">{batch.error}</p>}
      <table class="batch-items">
        <TableHead columns={['File', 'State', 'Progress', 'Details']} />
        <tbody>
          {batch.items.map((item) => (
            <tr key={item.key} class={`phase-${item.phase}`} data-file={item.name}>
              <td>
                {item.name} {item.size !== undefined && <span class="muted">({formatBytes(item.size)})</span>}
              </td>
              <td>
                <span class={`badge badge-phase-${item.phase}`}>{PHASE_LABELS[item.phase]}</span>
              </td>
              <td>
                {item.phase === 'sending' || item.phase === 'uploading' ? (
                  <Progress
                    percent={item.total ? (100 * (item.sent ?? 0)) / item.total : null}
                    label={`Progress of ${item.name}`}
                  />
                ) : item.phase === 'submitted' && item.jobId ? (
                  <SubmittedJob seen={jobs.get(item.jobId)} name={item.name} />
                ) : null}
              </td>
              <td>
                {item.error && <span class="item-error">{item.error}</span>}
                {item.jobId && (
                  <a href={`#/job/${encodeURIComponent(item.jobId)}`} aria-label={`Job of ${item.name}`}>
                    Open job
                  </a>
                )}
                {item.promptsJobId && (
                  <>
                    {' · '}
                    <a
                      href={`#/job/${encodeURIComponent(item.promptsJobId)}`}
                      aria-label={`Animations of ${item.name}`}
                    >
                      Animations
                    </a>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * A submitted file's job as the queue knows it: queued at the service, running with its progress, or how it
 * ended. Never a full bar while the job waits: the file was sent, the work is not done.
 */
function SubmittedJob({ seen, name }: { seen: BatchJobSeen; name: string }) {
  if (seen === null) return <span class="badge badge-cancelled">Removed from the library</span>;
  if (seen === undefined || (!seen.final && seen.state === 'queued'))
    return <span class="badge badge-queued">Queued at the service</span>;
  const label = STATE_LABELS[seen.state as JobView['state']] ?? seen.state;
  if (!seen.final)
    return (
      <span class="job-progress">
        <span class={`badge badge-${seen.state}`}>{label}</span>
        <Progress percent={seen.percent} label={`Progress of the job of ${name}`} />
      </span>
    );
  return <span class={`badge badge-${seen.state}`}>{seen.state === 'succeeded' ? 'Completed' : label}</span>;
}

function ActiveJobs() {
  const bridge = getBridge();
  const [jobs, setJobs] = useState<JobView[] | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const load = () =>
    bridge
      .call('jobs.list', { limit: 200 })
      .then((r) => (setJobs(r.jobs), setError(undefined)))
      .catch((e: unknown) => setError(toShownError(e)));
  useEffect(() => {
    void load();
    const off = bridge.on('job', (job) => {
      setJobs((list) => {
        // A job not in the list, or any job while the first list is still on its way (it may have been read
        // before this job existed: a batch just submitted): the list is read again.
        const i = list ? list.findIndex((j) => j.id === job.id) : -1;
        if (!list || i < 0) {
          if (timer.current === undefined)
            timer.current = setTimeout(() => ((timer.current = undefined), void load()), 500);
          return list;
        }
        const next = list.slice();
        next[i] = job;
        return next;
      });
    });
    return () => {
      off();
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, []);
  const active = jobs?.filter((j) => !j.final && j.state !== 'submission_unknown' && j.state !== 'cancelled') ?? [];
  const attention =
    jobs?.filter((j) => j.state === 'failed' || j.state === 'cancelled' || j.state === 'submission_unknown') ?? [];
  return (
    <>
      <Section title="In progress" id="in-progress">
        <ErrorBox error={error} />
        {jobs && active.length === 0 && <p class="muted">Nothing is running.</p>}
        <JobList jobs={active} label="Jobs in progress" />
      </Section>
      <Section title="Needs attention" id="attention">
        <p class="hint">
          Failed and cancelled jobs can be sent again (a new job). A <em>submission unknown</em> job was sent but its
          answer was lost: it is never sent again on its own, so no credits are spent twice. Reconcile it against the
          service's list.
        </p>
        {jobs && attention.length === 0 && <p class="muted">Nothing needs attention.</p>}
        <JobList jobs={attention} label="Jobs that need attention" />
      </Section>
    </>
  );
}

function JobList({ jobs, label }: { jobs: JobView[]; label: string }) {
  return (
    <ul class="job-list" aria-label={label}>
      {jobs.map((j) => (
        <JobRow key={j.id} job={j} />
      ))}
    </ul>
  );
}
