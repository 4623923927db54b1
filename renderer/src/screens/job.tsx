// One job: status, progress, its cached files, and the resource as the service last reported it.
import { useMemo, useRef, useState } from 'preact/hooks';
import type { CachedOutput, JobView } from '../../../shared/bridge/contract.ts';
import { getBridge } from '../../bridge/index.ts';
import { AnimationPanel } from '../../viewer/animation-job.tsx';
import { formatOfKind, type UrlSource } from '../../viewer/types.ts';
import { ExportPanel } from '../../viewer/export.tsx';
import { ModelViewer } from '../../viewer/viewer.tsx';
import { ErrorBox, Progress, Section, StateBadge } from '../components/ui.tsx';
import { loadOutputs, useOutputs } from '../outputs.ts';
import { KIND_LABELS, formatBytes, formatTime, jobTitle, stepLabel, toShownError, type ShownError } from '../util.ts';
import { useJob } from './create/form.tsx';
import { JobActions } from './job-actions.tsx';

const PREFERRED = ['glb', 'polished_glb', 'preview_glb'];

/** The model to preview among a job's cached files: its GLB (the final one first), else an OBJ. */
export function previewOf(outputs: CachedOutput[] | undefined): UrlSource | undefined {
  const ready = (outputs ?? []).filter((o) => o.state === 'complete' && o.url);
  const pick =
    PREFERRED.map((k) => ready.find((o) => o.kind === k)).find((o) => o) ??
    ready.find((o) => formatOfKind(o.kind) === 'glb') ??
    ready.find((o) => formatOfKind(o.kind) === 'obj');
  return pick ? { url: pick.url!, format: formatOfKind(pick.kind)!, name: pick.kind } : undefined;
}

function PreviewPanel({ outputs, job }: { outputs: CachedOutput[] | undefined; job: JobView }) {
  const picked = previewOf(outputs);
  // A new object only when the file changes, so the viewer does not reload on every outputs event.
  const source = useMemo(() => picked, [picked?.url, picked?.format]);
  const stage = useRef<HTMLDivElement>(null);
  if (!source) return null;
  // An older-flow session with both meshes compares its preview with the refined one.
  const withPreview = source.name !== 'preview_glb' && outputs?.some((o) => o.kind === 'preview_glb' && o.state === 'complete');
  const compare = withPreview ? `#/compare/${encodeURIComponent(job.id)}~preview_glb/${encodeURIComponent(job.id)}` : `#/compare/${encodeURIComponent(job.id)}`;
  return (
    <Section title="Preview" id="job-preview" actions={<a href={compare}>{withPreview ? 'Compare with the preview mesh' : 'Compare with…'}</a>}>
      <div ref={stage}>
        <ModelViewer source={source} label={`${jobTitle(job)} (${source.name})`} />
      </div>
      <h3>Export to a project</h3>
      <ExportPanel job={job} stage={() => stage.current} />
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
          <Progress percent={job.percent ?? (job.state === 'succeeded' ? 100 : null)} label={`Progress of ${jobTitle(job)}`} />
        </div>
        {job.error && <p class="job-error">{job.error}</p>}
        <dl class="facts">
          <dt>Kind</dt>
          <dd>
            {KIND_LABELS[job.kind] ?? job.kind}
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
      </Section>
      {job.kind === 'animation_session' || job.kind === 'animation_prompt' ? <AnimationPanel outputs={outputs} job={job} /> : <PreviewPanel outputs={outputs} job={job} />}
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
          <p class="muted">{job.state === 'succeeded' ? 'No files cached yet.' : 'Files are downloaded when the job is done.'}</p>
        ) : (
          <table class="outputs">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">State</th>
                <th scope="col">Size</th>
              </tr>
            </thead>
            <tbody>
              {outputs.map((o) => (
                <tr key={o.kind} data-output={o.kind}>
                  <td>{o.url && o.state === 'complete' ? <a href={o.url} download>{o.kind}</a> : o.kind}</td>
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
