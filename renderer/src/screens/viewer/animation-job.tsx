// The preview of a mesh-animation job: its animated files (the session's animation, each library entry,
// each text prompt's result, from the cache) in the viewer with playback, a new file keeping the camera;
// and for the session, the joint overlay on its render, whose hovered joint lights up the matching bones.
import { useMemo, useState } from 'preact/hooks';
import type { CachedOutput, JobView } from '../../../../shared/bridge/contract.ts';
import type { JointName } from '../../../../shared/joints.ts';
import type { UrlSource } from '../../../viewer/index.ts';
import { Section } from '../../components/ui.tsx';
import { jobTitle } from '../../util.ts';
import { JointOverlay } from './joints.tsx';
import { ModelViewer } from './model-viewer.tsx';

type AnimationFile = UrlSource & { label: string };

/** A job's animated files among its cached outputs, in this order: kinds `animation`, `library:<id>`, `prompt:<id>`. */
export function animationFiles(outputs: CachedOutput[] | undefined, result: unknown): AnimationFile[] {
  const r = (result && typeof result === 'object' ? result : {}) as { animation_library?: unknown; prompts?: unknown };
  const named = (list: unknown, key: 'label' | 'text') =>
    new Map((Array.isArray(list) ? (list as Record<string, unknown>[]) : []).map((x) => [String(x?._id ?? ''), String(x?.[key] ?? '')] as const));
  const library = named(r.animation_library, 'label');
  const prompts = named(r.prompts, 'text');
  const out: AnimationFile[] = [];
  for (const o of outputs ?? []) {
    if (o.state !== 'complete' || !o.url) continue;
    let label: string | undefined;
    if (o.kind === 'animation') label = 'Session animation (all clips)';
    else if (o.kind.startsWith('library:')) label = `Library: ${library.get(o.kind.slice(8)) || o.kind.slice(8)}`;
    else if (/^prompt:[^:]+$/.test(o.kind)) label = `Prompt: ${prompts.get(o.kind.slice(7)) || o.kind.slice(7)}`;
    if (label) out.push({ url: o.url, format: 'glb', name: o.kind, label, size: o.size });
  }
  const rank = (f: AnimationFile) => (f.name === 'animation' ? 0 : f.name.startsWith('library:') ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b));
}

/** The Preview section of a mesh-animation job (session or text prompts); nothing until a file is cached. */
export function AnimationPanel({ outputs, job }: { outputs: CachedOutput[] | undefined; job: JobView }) {
  if (animationFiles(outputs, job.result).length === 0) return null;
  return (
    <Section title="Preview" id="job-preview">
      <AnimationPreview outputs={outputs} result={job.result} title={jobTitle(job)} />
    </Section>
  );
}

function AnimationPreview({ outputs, result, title }: { outputs: CachedOutput[] | undefined; result: unknown; title: string }) {
  const files = animationFiles(outputs, result);
  const [picked, setPicked] = useState<string | undefined>();
  const [joint, setJoint] = useState<JointName | undefined>();
  const file = files.find((f) => f.name === picked) ?? files[0];
  // A new object only when the file changes, so the viewer does not reload on every outputs event.
  const source = useMemo(() => file && { url: file.url, format: file.format, name: file.name, size: file.size }, [file?.url]);
  const render = outputs?.find((o) => o.kind === 'render' && o.state === 'complete' && o.url);
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
