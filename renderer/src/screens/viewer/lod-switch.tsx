// The viewer's LOD switch (#31 item 7): the levels the export with the chosen profile would write (the export's own
// chain, made in main on a worker: bridge export.lodPreview), each shown in the viewer in place of the model with
// its triangles and the simplifier's error, and back to the original.
import { useState } from 'preact/hooks';
import type { JobView } from '../../../../shared/bridge/contract.ts';
import type { ModelSource } from '../../../viewer/index.ts';
import { getBridge } from '../../../bridge/index.ts';
import { ErrorBox } from '../../components/ui.tsx';
import { useAction } from '../../use-action.ts';
import { useViewerProfile } from './budget.tsx';

/** What the viewer shows of a level: its number, triangles and error (a share of the model's size). */
interface Shown {
  level: number;
  triangles: number;
  error: number;
}

function glbFile(base64: string, name: string): File {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new File([bytes], name, { type: 'model/gltf-binary' });
}

/** `onSource`: the level's model for the viewer, undefined for the original. Shown for a job with a cached GLB. */
export function LodSwitch(props: { job: JobView; onSource: (source: ModelSource | undefined) => void }) {
  const profile = useViewerProfile();
  const [levels, setLevels] = useState<number | undefined>();
  const [shown, setShown] = useState<Shown | undefined>();
  const action = useAction();
  if (!profile) return null;
  const show = (level: number) =>
    action.run(async () => {
      const lod = await getBridge().call('export.lodPreview', { jobId: props.job.id, profile: profile.name, level });
      setLevels(lod.levels);
      setShown({ level, triangles: lod.triangles, error: lod.error });
      props.onSource({ files: [glbFile(lod.glb, `${props.job.label || 'model'}_LOD${level}.glb`)] });
    });
  const original = () => {
    setShown(undefined);
    props.onSource(undefined);
  };
  return (
    <fieldset class="lod-switch">
      <legend class="muted">LODs for {profile.label}</legend>
      <button type="button" aria-pressed={shown === undefined} onClick={original} disabled={action.busy}>
        Original
      </button>
      {(levels === undefined ? [0] : Array.from({ length: levels }, (_, i) => i)).map((level) => (
        <button
          key={level}
          type="button"
          data-lod={level}
          aria-pressed={shown?.level === level}
          disabled={action.busy}
          onClick={() => show(level)}
        >
          {levels === undefined ? 'Preview LODs' : `LOD${level}`}
        </button>
      ))}
      {shown && (
        <span class="hint" data-lod-shown={shown.level}>
          {' '}
          LOD{shown.level}: {shown.triangles.toLocaleString('en')} triangles, simplifier error{' '}
          {(shown.error * 100).toFixed(2)} % of the model's size
        </span>
      )}
      {action.busy && <span class="muted"> Making the level…</span>}
      <ErrorBox error={action.error} />
    </fieldset>
  );
}
