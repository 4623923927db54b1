// The preview of a mesh-animation job: its animated files (the session's animation, each library entry,
// each text prompt's result, from the cache) in the viewer with playback, a new file keeping the camera;
// and for the session, the joint overlay on its render (below the 3D view, which is as large as any job's), whose hovered
// joint lights up the matching bones. Clips are called by their prompt's text (or library label), never by
// an id, and each prompt's status is listed as the job is read.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { CachedOutput, JobView } from '../../../../shared/bridge/contract.ts';
import type { JointName } from '../../../../shared/joints.ts';
import { jobDef } from '../../../../shared/kinds/index.ts';
import { parseOutputKind } from '../../../../shared/output-kind.ts';
import { getBridge } from '../../../bridge/index.ts';
import { Section } from '../../components/ui.tsx';
import { jobTitle } from '../../util.ts';
import { animationFiles } from './animation-clips.ts';
import { AnimationExport } from './export-panel.tsx';
import { JointOverlay } from './joints.tsx';
import { ModelViewer, type ShownModel } from './model-viewer.tsx';

/** The prompts of a job (all of a session's, or a text-animation job's own), with their status as last read. */
export function promptsOf(
  job: Pick<JobView, 'kind' | 'result' | 'texts'>,
): { id: string; text: string; status: string }[] {
  const prompts = (job.result as { prompts?: unknown } | null | undefined)?.prompts;
  if (!Array.isArray(prompts)) return [];
  return prompts
    .map((p) => p as { _id?: unknown; text?: unknown; status?: unknown })
    .filter(
      (p): p is { _id?: unknown; text: string; status?: unknown } =>
        typeof p.text === 'string' && (job.kind !== 'animation_prompt' || !job.texts || job.texts.includes(p.text)),
    )
    .map((p) => ({ id: String(p._id ?? ''), text: p.text, status: String(p.status ?? '') }));
}

const PROMPT_STATE: Readonly<Record<string, string>> = {
  queued: 'Queued',
  text_processing: 'Animating…',
  processing: 'Animating…',
  in_progress: 'Animating…',
  text_done: 'Done',
  completed: 'Done',
  text_failed: 'Failed',
};

/** Each prompt of the job and its status, as the job is read (the page follows the job live). */
export function PromptStatuses({ job }: { job: Pick<JobView, 'kind' | 'result' | 'texts'> }) {
  const prompts = promptsOf(job);
  if (prompts.length === 0) return null;
  return (
    <ul class="prompt-statuses" aria-label="Prompts">
      {prompts.map((p) => (
        <li key={p.id || p.text} data-prompt={p.text} data-status={p.status}>
          <strong>{p.text}</strong>: {PROMPT_STATE[p.status] ?? (p.status || 'Waiting')}
        </li>
      ))}
    </ul>
  );
}

/**
 * What a user calls a clip inside an animated file: the prompt's text or the library's label when the
 * clip's name is one of their ids; a prompt's own file (one clip) is called by that prompt.
 */
export function clipNamer(
  job: Pick<JobView, 'kind' | 'result'>,
  fileKind: string | undefined,
): (name: string, index: number) => string {
  const names = jobDef(job.kind)?.clipNames?.(job.result);
  const kind = fileKind ? parseOutputKind(fileKind) : undefined;
  const own = kind?.type === 'clip' ? names?.[kind.source].get(kind.id) : undefined;
  return (name, index) =>
    names?.prompt.get(name) ||
    names?.library.get(name) ||
    (index === 0 && own && (!name || /^[0-9a-f]{16,}$/i.test(name)) ? own : '') ||
    name;
}

/**
 * The job with the newest read of its session: a session job is no longer read once its upload is done, but
 * the text-animation jobs of the same session are, and each read holds every prompt of the session (their
 * texts and statuses name the clips). Followed live through `job` events.
 */
function useNewestSessionRead(job: JobView): JobView {
  const [newest, setNewest] = useState<JobView | undefined>();
  const code = job.kind === 'animation_session' ? job.remoteId : null;
  useEffect(() => {
    setNewest(undefined);
    if (!code) return;
    const bridge = getBridge();
    const take = (j: JobView) =>
      j.remoteId === code &&
      j.kind === 'animation_prompt' &&
      setNewest((n) => (n && n.updatedAt >= j.updatedAt ? n : j));
    const off = bridge.on('job', take);
    bridge.call('jobs.list', { search: code, kinds: ['animation_prompt'], limit: 50 }).then(
      (r) => r.jobs.forEach(take),
      () => {},
    );
    return off;
  }, [code]);
  return newest && newest.updatedAt > job.updatedAt && newest.result ? { ...job, result: newest.result } : job;
}

/** The Preview section of a mesh-animation job (session or text prompts): its prompts, and its files once cached. */
export function AnimationPanel({ outputs, job: own }: { outputs: CachedOutput[] | undefined; job: JobView }) {
  const job = useNewestSessionRead(own);
  const files = animationFiles(outputs, job).length > 0;
  const [shown, setShown] = useState<ShownModel | undefined>();
  if (!files && promptsOf(job).length === 0) return null;
  return (
    <Section title="Preview" id="job-preview">
      <PromptStatuses job={job} />
      {files && <AnimationPreview outputs={outputs} job={job} title={jobTitle(job)} onShown={setShown} />}
      {files && <AnimationExport outputs={outputs} job={job} shown={shown} />}
    </Section>
  );
}

function AnimationPreview({
  outputs,
  job,
  title,
  onShown,
}: {
  outputs: CachedOutput[] | undefined;
  job: JobView;
  title: string;
  onShown: (shown: ShownModel | undefined) => void;
}) {
  const result = job.result;
  const files = animationFiles(outputs, job);
  const [picked, setPicked] = useState<string | undefined>();
  const [joint, setJoint] = useState<JointName | undefined>();
  const file = files.find((f) => f.name === picked) ?? files[0];
  // A new object only when the file changes, so the viewer does not reload on every outputs event.
  const source = useMemo(
    () => file && { url: file.url, format: file.format, name: file.name, size: file.size },
    [file?.url],
  );
  const render = outputs?.find((o) => parseOutputKind(o.kind)?.type === 'render' && o.state === 'complete' && o.url);
  const dict = (result as { animation_joint_dict?: Record<string, unknown> } | undefined)?.animation_joint_dict;
  const joints = !!render?.url && !!dict && Object.keys(dict).length > 0;
  const clipName = useMemo(() => clipNamer(job, file?.name), [job.result, file?.name]);
  return (
    <div class={`animation-preview${joints ? ' with-joints' : ''}`}>
      {source && (
        <ModelViewer
          source={source}
          label={`${title} (${file!.label})`}
          keepCamera
          highlightJoint={joint}
          clipName={clipName}
          fileLabel={file!.label}
          onShown={onShown}
          under={joints && <JointOverlay src={render!.url!} dict={dict!} highlighted={joint} onHover={setJoint} />}
        >
          <label for="anim-file">Animation file</label>
          <select id="anim-file" value={file!.name} onChange={(e) => setPicked(e.currentTarget.value)}>
            {files.map((f) => (
              <option key={f.name} value={f.name}>
                {f.label}
              </option>
            ))}
          </select>
        </ModelViewer>
      )}
      {joints && !source && <JointOverlay src={render!.url!} dict={dict!} highlighted={joint} onHover={setJoint} />}
    </div>
  );
}
