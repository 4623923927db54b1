// Cancel, retry and reconcile of one job; and the next steps of a finished one.
import { useState } from 'preact/hooks';
import type { CachedOutput, CommandOutput, JobView } from '../../../shared/bridge/contract.ts';
import { jobDef } from '../../../shared/kinds/index.ts';
import { cachedFile, cachedOutput, fileNameOf, handOff, modelLabelOf } from '../next-step.ts';
import { previewOf } from '../outputs.ts';
import { getBridge } from '../../bridge/index.ts';
import { pushNotice } from '../app-state.ts';
import { ErrorBox } from '../components/ui.tsx';
import { useAction } from '../use-action.ts';
import { formatTime, jobTitle, readAsDataUri } from '../util.ts';

type Reconcile = CommandOutput<'jobs.reconcile'>['results'][number];

export function JobActions({ job }: { job: JobView }) {
  const bridge = getBridge();
  const { busy, error, run } = useAction();
  const [reconcile, setReconcile] = useState<Reconcile | undefined>();
  const unknown = job.state === 'submission_unknown';
  const canCancel = !job.final && !unknown && job.state !== 'cancelled';
  const canRetry = job.state === 'failed' || job.state === 'cancelled';
  const title = jobTitle(job);
  /** The buttons this job's state offers: each its name (its text, where that says more) and what it does. */
  const actions: { name: string; text?: string; what: () => Promise<unknown> }[] = [];
  if (canCancel) actions.push({ name: 'Cancel', what: () => bridge.call('jobs.cancel', { id: job.id }) });
  if (canRetry)
    actions.push({
      name: 'Retry',
      what: async () => {
        const retried = await bridge.call('jobs.retry', { id: job.id });
        pushNotice('info', `Sent again as a new job: ${jobTitle(retried)}.`);
      },
    });
  const operationId = unknown ? job.operationId : undefined;
  if (operationId)
    actions.push({
      name: 'Reconcile',
      text: 'Reconcile…',
      what: async () => setReconcile((await bridge.call('jobs.reconcile', { operationId })).results[0]),
    });
  return (
    <div class="actions">
      {actions.map(({ name, text, what }) => (
        <button key={name} type="button" disabled={busy} aria-label={`${name} ${title}`} onClick={() => run(what)}>
          {text ?? name}
        </button>
      ))}
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
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    run(() =>
                      bridge
                        .call('jobs.reconcile', { operationId: job.operationId!, sessionCode: c.sessionCode })
                        .then(() => setReconcile(undefined)),
                    )
                  }
                >
                  Attach <code>{c.sessionCode}</code>
                </button>{' '}
                <span class="muted">
                  {formatTime(c.createdAt)} · {c.status}
                </span>
              </li>
            ))}
          </ul>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() =>
              run(() =>
                bridge
                  .call('jobs.reconcile', { operationId: job.operationId!, abandon: true })
                  .then(() => setReconcile(undefined)),
              )
            }
          >
            Abandon
          </button>
        </fieldset>
      )}
      <ErrorBox error={error} />
    </div>
  );
}

/**
 * The next steps of a finished job, one click each: a text-to-image's picture to 3D, a model retopologised or
 * animated (its FBX), or exported (the export panel below). Each hands the form what it starts from.
 */
export function NextSteps({ job, outputs }: { job: JobView; outputs: CachedOutput[] | undefined }) {
  const { busy, error, run } = useAction();
  if (job.state !== 'succeeded') return null;
  const title = jobTitle(job);
  const picture = job.kind === 'text_to_image' ? cachedOutput(outputs, (k) => k.type === 'image') : undefined;
  const model = previewOf(outputs, job.step);
  const animated = jobDef(job.kind)?.preview === 'animation';
  const fbx = cachedOutput(
    outputs,
    (k) => k.type === 'mesh' && k.format === 'fbx' && (job.step !== 'preview' || k.stage === 'preview'),
  );
  const retopologised = jobDef(job.kind)?.hasOriginal === true;
  if (!picture && !model) return null;
  return (
    <section class="next-steps" aria-label={`Next steps for ${title}`}>
      <h3>Next steps</h3>
      <div class="actions">
        {picture && (
          <button
            type="button"
            class="primary"
            disabled={busy}
            data-next="image-to-3d"
            onClick={() =>
              run(async () => {
                const file = await cachedFile(picture, fileNameOf(job, 'png'));
                handOff({
                  form: 'image-to-3d',
                  image: await readAsDataUri(file),
                  fileName: file.name,
                  label: modelLabelOf(job),
                });
              })
            }
          >
            Make a 3D model from this picture
          </button>
        )}
        {model && !animated && (
          <button
            type="button"
            disabled={busy}
            data-next="retopology"
            onClick={() => handOff({ form: 'retopology', jobId: job.id })}
          >
            {retopologised ? 'Retopologise again' : 'Retopologise this model'}
          </button>
        )}
        {model && !animated && (
          <button
            type="button"
            disabled={busy || !fbx}
            data-next="animation"
            title={fbx ? undefined : 'Animation takes an FBX: this job has none in the cache.'}
            onClick={() =>
              run(async () => {
                handOff({ form: 'animation', file: await cachedFile(fbx!, fileNameOf(job, 'fbx')) });
              })
            }
          >
            Animate this model
          </button>
        )}
        {model && (
          <button
            type="button"
            disabled={busy}
            data-next="export"
            onClick={() => document.getElementById('job-export')?.scrollIntoView({ block: 'start' })}
          >
            Export to a game project
          </button>
        )}
      </div>
      <ErrorBox error={error} />
    </section>
  );
}
