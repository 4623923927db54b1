// The preview of a mesh-animation job: its animated files (the session's animation, each library entry,
// each text prompt's result, from the cache) in the viewer with playback, a new file keeping the camera;
// and for the session, the joint overlay on its render, whose hovered joint lights up the matching bones.
import { useMemo, useState } from 'preact/hooks';
import type { CachedOutput, JobView } from '../../../../shared/bridge/contract.ts';
import type { JointName } from '../../../../shared/joints.ts';
import { outputLabelOf } from '../../../../shared/kinds/index.ts';
import { isAnimatedModel, parseOutputKind, type OutputKind } from '../../../../shared/output-kind.ts';
import type { UrlSource } from '../../../viewer/index.ts';
import { Section } from '../../components/ui.tsx';
import { jobTitle } from '../../util.ts';
import { AnimationExport } from './export-panel.tsx';
import { JointOverlay } from './joints.tsx';
import { ModelViewer } from './model-viewer.tsx';

type AnimationFile = UrlSource & { label: string };

/** A job's animated files among its cached outputs, in this order: the session's animation, its library clips, its prompts' clips. */
export function animationFiles(outputs: CachedOutput[] | undefined, job: Pick<JobView, 'kind' | 'result'>): AnimationFile[] {
  const rank = (kind: OutputKind) => (kind.type === 'animation' ? 0 : kind.type === 'clip' && kind.source === 'library' ? 1 : 2);
  const out: (AnimationFile & { rank: number })[] = [];
  for (const o of outputs ?? []) {
    const kind = parseOutputKind(o.kind);
    if (o.state !== 'complete' || !o.url || !kind || !isAnimatedModel(kind)) continue;
    out.push({ url: o.url, format: 'glb', name: o.kind, label: outputLabelOf(o.kind, job), size: o.size, rank: rank(kind) });
  }
  return out.sort((a, b) => a.rank - b.rank).map(({ rank: _, ...file }) => file);
}

/** The Preview section of a mesh-animation job (session or text prompts); nothing until a file is cached. */
export function AnimationPanel({ outputs, job }: { outputs: CachedOutput[] | undefined; job: JobView }) {
  if (animationFiles(outputs, job).length === 0) return null;
  return (
    <Section title="Preview" id="job-preview">
      <AnimationPreview outputs={outputs} job={job} title={jobTitle(job)} />
      <AnimationExport outputs={outputs} job={job} />
    </Section>
  );
}

function AnimationPreview({ outputs, job, title }: { outputs: CachedOutput[] | undefined; job: JobView; title: string }) {
  const result = job.result;
  const files = animationFiles(outputs, job);
  const [picked, setPicked] = useState<string | undefined>();
  const [joint, setJoint] = useState<JointName | undefined>();
  const file = files.find((f) => f.name === picked) ?? files[0];
  // A new object only when the file changes, so the viewer does not reload on every outputs event.
  const source = useMemo(() => file && { url: file.url, format: file.format, name: file.name, size: file.size }, [file?.url]);
  const render = outputs?.find((o) => parseOutputKind(o.kind)?.type === 'render' && o.state === 'complete' && o.url);
  const dict = (result as { animation_joint_dict?: Record<string, unknown> } | undefined)?.animation_joint_dict;
  return (
    <div class="animation-preview">
      {source && (
        <ModelViewer source={source} label={`${title} (${file!.label})`} keepCamera highlightJoint={joint}>
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
      {render?.url && dict && Object.keys(dict).length > 0 && <JointOverlay src={render.url} dict={dict} highlighted={joint} onHover={setJoint} />}
    </div>
  );
}
