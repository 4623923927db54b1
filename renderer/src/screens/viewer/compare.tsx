// Compare (#/compare/<jobA>/<jobB>): two viewers side by side whose cameras move together (each side's
// ModelViewer hands its viewer up with onShown; Viewer.linkCamera, renderer/viewer/sync.ts), each
// with its stats, and for an OBJ its faces by vertex count (quads and triangles, read from the OBJ text:
// Babylon triangulates). Each side shows a library job's model, named by the job's name and the file's label
// (an animation job's animated file with its clips, playing; as on its job page, or one output kind:
// `#/compare/<job>~preview_glb/<job>` is an older-flow session's preview against its refined mesh) or
// local files.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import { outputLabelOf } from '../../../../shared/kinds/index.ts';
import { getBridge } from '../../../bridge/index.ts';
import type { ModelSource } from '../../../viewer/index.ts';
import { previewOf, useOutputs, useViewerSource } from '../../outputs.ts';
import { jobTitle, stepLabel } from '../../util.ts';
import { animationFiles } from './animation-clips.ts';
import { clipNamer } from './animation-job.tsx';
import { ModelViewer, type ShownModel } from './model-viewer.tsx';

export interface FaceMix {
  triangles: number;
  quads: number;
  ngons: number;
}

/** Faces of an OBJ by their vertex count (`f` lines with 3, 4, or more vertices). */
export function objFaceMix(text: string): FaceMix {
  const mix = { triangles: 0, quads: 0, ngons: 0 };
  for (const line of text.split('\n')) {
    if (!line.startsWith('f ') && !line.startsWith('f\t')) continue;
    const n = line.trim().split(/\s+/).length - 1;
    if (n === 3) mix.triangles++;
    else if (n === 4) mix.quads++;
    else if (n > 4) mix.ngons++;
  }
  return mix;
}

function useFaceMix(source: ModelSource | undefined): FaceMix | undefined {
  const [mix, setMix] = useState<FaceMix | undefined>();
  useEffect(() => {
    setMix(undefined);
    if (!source) return;
    const obj =
      'files' in source
        ? source.files.find((f) => /\.obj$/i.test(f.name))
        : source.format === 'obj'
          ? source.url
          : undefined;
    if (!obj) return;
    let current = true;
    (typeof obj === 'string' ? fetch(obj).then((r) => r.text()) : obj.text()).then(
      (text) => current && setMix(objFaceMix(text)),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [source]);
  return mix;
}

/** What a side shows: the model, what the facts call it, and what its clips are called (a prompt's text). */
export interface ComparedModel {
  source: ModelSource;
  /** The job's name and the file's label (never an internal output key). */
  title?: string;
  fileLabel?: string;
  clipName?: (name: string, index: number) => string;
  animated?: boolean;
}

/**
 * A job's model: the given output kind (e.g. `preview_glb` of an older-flow session), else as on its job page: an
 * animation job's animated file (its prompt's clip first, then the session's animation: the GLB or FBX with its
 * clips, not the T-pose model of the session), else its mesh. Named by the job's name and the file's label.
 */
function JobModel({
  job,
  kind,
  onModel,
}: {
  job: JobView;
  kind: string | undefined;
  onModel: (m: ComparedModel | undefined) => void;
}) {
  const outputs = useOutputs(job.remoteId, !!job.remoteId, job.outputsFetched);
  const animated = animationFiles(outputs, job);
  const clip = kind ? animated.find((f) => f.name === kind) : animated[0];
  const picked = clip ? undefined : previewOf(kind ? outputs?.filter((o) => o.kind === kind) : outputs);
  // An OBJ from inside the session's zip when there is one, so its MTL and textures load.
  const source = useViewerSource(outputs, picked);
  const clipSource = useMemo(
    () => clip && { url: clip.url, format: clip.format, name: clip.name, size: clip.size },
    [clip?.url],
  );
  const shown = clipSource ?? source;
  useEffect(() => {
    if (!shown) return onModel(undefined);
    const name = 'files' in shown ? undefined : shown.name;
    onModel({
      source: shown,
      title: jobTitle(job),
      ...(clip
        ? { fileLabel: clip.label, clipName: clipNamer(job, clip.name), animated: true }
        : name && { fileLabel: outputLabelOf(name, job) }),
    });
  }, [shown && ('files' in shown ? shown.files : shown.url)]);
  return outputs && !picked && !clip ? <p class="muted">This job has no cached model.</p> : null;
}

function Side({
  which,
  jobs,
  initial,
  onShown,
}: {
  which: 'a' | 'b';
  jobs: JobView[];
  initial: string | undefined;
  onShown: (shown: ShownModel | undefined) => void;
}) {
  // `<job id>` or `<job id>~<output kind>`.
  const [jobId, setJobId] = useState(initial?.split('~')[0] ?? '');
  const [kind, setKind] = useState(initial?.split('~')[1]);
  const [model, setModel] = useState<ComparedModel | undefined>();
  const source = model?.source;
  const job = jobs.find((j) => j.id === jobId);
  const mix = useFaceMix(source);
  const label = which === 'a' ? 'Left' : 'Right';
  // An animated model plays once shown, so the two sides compare in motion (its controls pause it).
  const shown = (s: ShownModel | undefined) => {
    if (s && model?.animated && s.viewer.clips().length > 0) s.viewer.play();
    onShown(s);
  };
  return (
    <div class="compare-side" data-side={which}>
      <div class="compare-pick">
        <label for={`compare-job-${which}`}>{label}: a library item</label>
        <select
          id={`compare-job-${which}`}
          value={jobId}
          onChange={(e) => (setJobId(e.currentTarget.value), setKind(undefined))}
        >
          <option value="">–</option>
          {jobs.map((j) => (
            <option key={j.id} value={j.id}>
              {jobTitle(j)}
              {stepLabel(j)}
            </option>
          ))}
        </select>
        <label for={`compare-file-${which}`}>or files on this computer</label>
        <input
          id={`compare-file-${which}`}
          type="file"
          multiple
          accept=".glb,.gltf,.obj,.mtl,.fbx,.usdz,.usda,.bin,.png,.jpg,.jpeg,.webp"
          onChange={(e) => {
            const files = e.currentTarget.files;
            if (files && files.length > 0) {
              setJobId('');
              setModel({ source: { files: [...files] } });
            }
          }}
        />
      </div>
      {job && <JobModel key={job.id} job={job} kind={kind} onModel={setModel} />}
      {model?.title && (
        <p class="compare-title" data-testid="compare-title">
          {model.title}
          {model.fileLabel && <span class="muted"> · {model.fileLabel}</span>}
        </p>
      )}
      <ModelViewer
        source={source}
        label={
          model?.title
            ? `${model.title}${model.fileLabel ? ` (${model.fileLabel})` : ''}`
            : `the ${label.toLowerCase()} model`
        }
        fileLabel={model?.fileLabel}
        clipName={model?.clipName}
        onShown={shown}
      />
      {mix && (
        <dl class="facts compare-faces" aria-label={`Faces of the ${label.toLowerCase()} OBJ`}>
          <dt>Quads</dt>
          <dd data-stat="quads">{mix.quads.toLocaleString('en')}</dd>
          <dt>Triangles</dt>
          <dd data-stat="tris">{mix.triangles.toLocaleString('en')}</dd>
          {mix.ngons > 0 && (
            <>
              <dt>N-gons</dt>
              <dd>{mix.ngons.toLocaleString('en')}</dd>
            </>
          )}
        </dl>
      )}
    </div>
  );
}

export function CompareScreen({ a: initialA, b: initialB }: { a?: string | undefined; b?: string | undefined }) {
  // Undefined until the library's jobs are read (a side's initial job is then among the options).
  const [jobs, setJobs] = useState<JobView[] | undefined>();
  const [shownA, setShownA] = useState<ShownModel | undefined>();
  const [shownB, setShownB] = useState<ShownModel | undefined>();
  useEffect(() => {
    getBridge()
      .call('jobs.list', { limit: 200 })
      .then(
        (r) => setJobs(r.jobs.filter((j) => j.state === 'succeeded' && j.remoteId)),
        () => setJobs([]),
      );
  }, []);
  // The cameras move together while both sides show a model.
  const a = shownA?.viewer;
  const b = shownB?.viewer;
  useEffect(() => (a && b ? a.linkCamera(b) : undefined), [a, b]);
  return (
    <>
      <h1>Compare</h1>
      <p class="hint">Pick two library items or two files. Moving one view moves the other.</p>
      <div class="compare">
        {jobs && (
          <>
            <Side which="a" jobs={jobs} initial={initialA} onShown={setShownA} />
            <Side which="b" jobs={jobs} initial={initialB} onShown={setShownB} />
          </>
        )}
      </div>
    </>
  );
}
