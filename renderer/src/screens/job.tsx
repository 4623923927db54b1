// One job: status, progress, its cached files, and the resource as the service last reported it. The
// preview opens an OBJ from inside the session's zip (MTL and textures beside it); a retopology job links to
// the compare view against its original mesh when the cache holds it (jobs.original), or says why not. A job with a
// cached GLB shows the engine-fit check against a profile (fit-report.tsx).
import { useEffect, useState } from 'preact/hooks';
import type { CachedOutput, CommandOutput, JobView } from '../../../shared/bridge/contract.ts';
import { getBridge } from '../../bridge/index.ts';
import { jobDef, kindLabel, outputLabelOf } from '../../../shared/kinds/index.ts';
import { formatOutputKind } from '../../../shared/output-kind.ts';
import { AnimationPanel } from './viewer/animation-job.tsx';
import { ExportPanel } from './viewer/export-panel.tsx';
import { LodSwitch } from './viewer/lod-switch.tsx';
import { ModelViewer, type ShownModel } from './viewer/model-viewer.tsx';
import type { ModelSource } from '../../viewer/index.ts';
import { LocalEngineBadge } from '../components/local-engine.tsx';
import { ErrorBox, Progress, Section, StateBadge, TableHead } from '../components/ui.tsx';
import { loadOutputs, previewOf, useOutputs, useViewerSource } from '../outputs.ts';
import { formatBytes, formatTime, jobTitle, stepLabel, toShownError, type ShownError } from '../util.ts';
import { useJob } from './create/form.tsx';
import { JobActions, NextSteps } from './job-actions.tsx';
import { cachedOutput, promptOf } from '../next-step.ts';
import { FitSection } from './fit-report.tsx';

const previewGlb = formatOutputKind({ type: 'mesh', stage: 'preview', format: 'glb' });

type Original = CommandOutput<'jobs.original'>;

/** A retopology job's original (jobs.original), read again when its outputs are fetched; undefined for other jobs. */
function useOriginal(job: JobView): Original | undefined {
  const [original, setOriginal] = useState<Original | undefined>();
  const wanted = jobDef(job.kind)?.hasOriginal === true && job.state === 'succeeded';
  useEffect(() => {
    setOriginal(undefined);
    if (!wanted) return;
    let current = true;
    getBridge()
      .call('jobs.original', { id: job.id })
      .then(
        (r) => current && setOriginal(r),
        (e: unknown) =>
          current && setOriginal({ mesh: null, original: null, kind: null, reason: toShownError(e).message }),
      );
    return () => {
      current = false;
    };
  }, [job.id, wanted, job.outputsFetched]);
  return original;
}

/** `#/compare/<job>~<kind>/<job>~<kind>` (compare.tsx reads `~` as "this output of the job"). */
export function compareHref(
  a: { jobId: string; kind?: string | null | undefined },
  b?: { jobId: string; kind?: string | null | undefined },
): string {
  const side = (s: { jobId: string; kind?: string | null | undefined }) =>
    `${encodeURIComponent(s.jobId)}${s.kind ? `~${encodeURIComponent(s.kind)}` : ''}`;
  return `#/compare/${side(a)}${b ? `/${side(b)}` : ''}`;
}

function PreviewPanel({ outputs, job }: { outputs: CachedOutput[] | undefined; job: JobView }) {
  const picked = previewOf(outputs, job.step);
  // An OBJ opens from inside the session's zip when there is one (its MTL and textures load); a new object
  // only when the file changes, so the viewer does not reload on every outputs event.
  const source = useViewerSource(outputs, picked);
  const original = useOriginal(job);
  const [shown, setShown] = useState<ShownModel | undefined>();
  const [lod, setLod] = useState<ModelSource | undefined>();
  if (!source) return null;
  const glb = !!cachedOutput(outputs, (k) => k.type === 'mesh' && k.format === 'glb');
  // An older-flow session with both meshes compares its preview with the refined one.
  const withPreview =
    source.name !== previewGlb &&
    job.step !== 'preview' &&
    outputs?.some((o) => o.kind === previewGlb && o.state === 'complete');
  const compare = withPreview
    ? compareHref({ jobId: job.id, kind: previewGlb }, { jobId: job.id })
    : compareHref({ jobId: job.id });
  const links = (
    <span class="actions">
      {original?.original && (
        <a
          href={compareHref(
            { jobId: original.original.jobId, kind: original.original.kind },
            { jobId: job.id, kind: original.kind ?? source.name },
          )}
          data-compare-original
        >
          Compare with the original
        </a>
      )}
      <a href={compare}>{withPreview ? 'Compare with the preview mesh' : 'Compare with…'}</a>
    </span>
  );
  return (
    <Section title="Preview" id="job-preview" actions={links}>
      {original && !original.original && original.reason && (
        <p class="hint" data-original-missing>
          {original.reason}
        </p>
      )}
      <div data-model={source.name}>
        <ModelViewer source={lod ?? source} label={`${jobTitle(job)} (${source.name})`} onShown={setShown} />
      </div>
      {glb && <LodSwitch job={job} onSource={setLod} />}
      <h3 id="job-export">Export to a project</h3>
      <ExportPanel job={job} shown={shown} glb={glb} />
    </Section>
  );
}

/** A text-to-image job's picture, large, from the cache (its file link stays in Files below). */
function PicturePanel({ outputs, job }: { outputs: CachedOutput[] | undefined; job: JobView }) {
  const picture = cachedOutput(outputs, (k) => k.type === 'image');
  if (!picture) return null;
  return (
    <Section title="Picture" id="job-picture">
      <a href={picture.url!} class="job-picture-link" title="Open the picture at full size">
        <img class="job-picture" src={picture.url!} alt={`Made from the prompt "${promptOf(job)}"`} />
      </a>
    </Section>
  );
}

export function JobPage({ id }: { id: string }) {
  const job = useJob(id);
  const outputs = useOutputs(job?.remoteId, !!job?.remoteId, job?.outputsFetched);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  if (!job) return <p class="muted">Loading job…</p>;
  return (
    <>
      <p>
        <a href="#/library">← Library</a>
      </p>
      <h1>{jobTitle(job)}</h1>
      <Section title="Status" id="job-status">
        <div class="created-status">
          <StateBadge job={job} />
          <Progress
            percent={job.percent ?? (job.state === 'succeeded' ? 100 : null)}
            label={`Progress of ${jobTitle(job)}`}
          />
          <LocalEngineBadge origin={job.origin} />
        </div>
        {job.error && <p class="job-error">{job.error}</p>}
        <dl class="facts">
          <dt>Kind</dt>
          <dd>
            {kindLabel(job.kind)}
            {stepLabel(job)}
          </dd>
          <dt>Session</dt>
          <dd>{job.remoteId ? <code>{job.remoteId}</code> : '–'}</dd>
          <dt>Created</dt>
          <dd>{formatTime(job.createdAt)}</dd>
          <dt>Finished</dt>
          <dd>{formatTime(job.finishedAt)}</dd>
          <dt>Local id</dt>
          <dd>
            <code>{job.id}</code>
          </dd>
        </dl>
        <JobActions job={job} />
        <NextSteps job={job} outputs={outputs} />
      </Section>
      {job.kind === 'text_to_image' && <PicturePanel outputs={outputs} job={job} />}
      {jobDef(job.kind)?.preview === 'animation' ? (
        <AnimationPanel outputs={outputs} job={job} />
      ) : (
        <PreviewPanel outputs={outputs} job={job} />
      )}
      {job.state === 'succeeded' && cachedOutput(outputs, (k) => k.type === 'mesh' && k.format === 'glb') && (
        <FitSection job={job} />
      )}
      <Section
        title="Files"
        id="job-files"
        actions={
          job.remoteId && job.state === 'succeeded' ? (
            <button
              type="button"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                setError(undefined);
                try {
                  await getBridge().call('cache.fetch', { jobId: job.id });
                  await loadOutputs(job.remoteId!, true);
                } catch (e) {
                  setError(toShownError(e));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {busy ? 'Downloading…' : 'Download files now'}
            </button>
          ) : undefined
        }
      >
        <ErrorBox error={error} />
        {!outputs || outputs.length === 0 ? (
          <p class="muted">
            {job.state === 'succeeded' ? 'No files cached yet.' : 'Files are downloaded when the job is done.'}
          </p>
        ) : (
          <table class="outputs">
            <TableHead columns={['File', 'State', 'Size']} />
            <tbody>
              {outputs.map((o) => (
                <tr key={o.kind} data-output={o.kind}>
                  <td title={o.kind}>
                    {o.url && o.state === 'complete' ? (
                      <a href={o.url} download>
                        {outputLabelOf(o.kind, job)}
                      </a>
                    ) : (
                      outputLabelOf(o.kind, job)
                    )}
                  </td>
                  <td>
                    {o.state}
                    {o.error && <span class="item-error"> {o.error}</span>}
                  </td>
                  <td>{formatBytes(o.size)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title="As last reported by the service" id="job-result">
        <details>
          <summary>Show the raw record</summary>
          <pre class="raw-json">{JSON.stringify(job.result, null, 2)}</pre>
        </details>
      </Section>
    </>
  );
}
