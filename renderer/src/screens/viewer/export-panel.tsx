// Export from the viewer: project folder (Electron's folder dialog, or a typed path in the browser; a path
// with `..` steps is shown resolved), engine preset (detected with export.detect), the one mesh format (the
// engine's default, with what the engine needs said under it), an animation job's clips, name, transforms
// (scale, pivot, up axis, with the engine's own axes and a warning when its importer would convert twice), a target
// profile (its fixes applied by the export; the engine-fit check's findings shown under it, fit-report.tsx) and
// whether to replace an earlier export of the same name (keeping Unity's .meta files). The viewer shows the
// transformed model (renderer/viewer/sync.ts applies the same transforms and reframes), export.plan says which
// files will be written and which not and why, then export.run writes them; the result or the error is shown in words.
import { useEffect, useState } from 'preact/hooks';
import type { CachedOutput, CommandInput, CommandOutput, JobView } from '../../../../shared/bridge/contract.ts';
import {
  defaultFormat,
  doubleConversion,
  ENGINE_AXES,
  EXPORT_FORMAT_LABELS,
  EXPORT_FORMATS,
  EXPORT_TARGET_LABELS,
  EXPORT_TARGETS,
  formatNeeds,
  formatRefusal,
  DEFAULT_PIVOT_WHY,
  defaultPivot,
  PIVOTS,
  UP_AXES,
  type ExportClip,
  type ExportFormat,
  type ExportTarget,
  type FormatFacts,
  type Pivot,
  type UpAxis,
} from '../../../../shared/export-options.ts';
import { getBridge } from '../../../bridge/index.ts';
import type { PreviewTransforms } from '../../../viewer/index.ts';
import { appState } from '../../app-state.ts';
import { TextField } from '../create/inputs.tsx';
import { Select } from '../../components/choices.tsx';
import { ErrorBox, Options } from '../../components/ui.tsx';
import { clipChecked, exportClipsOf } from './animation-clips.ts';
import type { ShownModel } from './model-viewer.tsx';
import { useStore } from '../../store.ts';
import { formatBytes, toShownError, type ShownError } from '../../util.ts';
import { exportProfileOf, NO_PROFILE } from '../../profiles.ts';
import { ExportProfileField } from '../fit-report.tsx';

const PIVOT_LABELS: Record<Pivot, string> = {
  'bottom-center': 'Bottom centre (stands on the ground)',
  center: 'Centre of the box',
};
// Engines' importers turn the file's Y up into their own up axis themselves: Z up is for a tool that does not.
const UP_AXIS_LABELS: Record<UpAxis, string> = {
  'y-to-z': 'Z up (not for an engine: its importer does it)',
  'z-to-y': 'Fix a model made Z up',
};
const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);
const metres = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));

/** The transforms chosen in the form (undefined fields are left out: the export only takes what is set). */
function transformsOf(
  scaleMode: string,
  scaleValue: string,
  pivot: string,
  upAxis: string,
): PreviewTransforms | undefined {
  const t: PreviewTransforms = {};
  const v = Number(scaleValue);
  if (scaleMode === 'factor' && v > 0) t.scale = { factor: v };
  if (scaleMode === 'height' && v > 0) t.scale = { height: v };
  if (isOneOf(PIVOTS, pivot)) t.pivot = pivot;
  if (isOneOf(UP_AXES, upAxis)) t.upAxis = upAxis;
  return Object.keys(t).length > 0 ? t : undefined;
}

/** What export.detect found, in words: the project, or the plain folder (a new one is created by the export). */
function detectedText(d: CommandOutput<'export.detect'>): string {
  if (d.engine !== 'folder')
    return `${EXPORT_TARGET_LABELS[d.engine]} project found at ${d.root}.${d.newFolder ? ' The folder you typed does not exist yet: the export creates it.' : ''}`;
  return d.newFolder
    ? `New folder: the export creates ${d.root}.`
    : `No game project here: the export writes into ${d.root}.`;
}

/** A typed path with `..` steps, said resolved: where the export really goes (undefined for a plain path). */
function resolvedText(typed: string, d: CommandOutput<'export.detect'>): string | undefined {
  return typed.split(/[\\/]/).includes('..') ? `The folder you typed is ${d.dir}.` : undefined;
}

/** The export of an animation job (#16 item 9): its clips to choose, under its preview. */
export function AnimationExport({
  outputs,
  job,
  shown,
}: {
  outputs: CachedOutput[] | undefined;
  job: JobView;
  shown: ShownModel | undefined;
}) {
  return (
    <>
      <h3>Export to a project</h3>
      <ExportPanel job={job} shown={shown} clips={exportClipsOf(outputs, job)} />
    </>
  );
}

type Plan = CommandOutput<'export.plan'>;
type Detected = CommandOutput<'export.detect'>;

/**
 * Reads what the form's options say (export.detect, export.plan) once they stop changing for 300 ms: `read`
 * again whenever `deps` change, nothing while it is undefined. The answer, or its error in words, goes to `set`;
 * a change drops the one awaited (undefined meanwhile).
 */
function useReadAfterTyping<T>(
  read: (() => Promise<T>) | undefined,
  set: (answer: T | { error: string } | undefined) => void,
  deps: unknown[],
) {
  useEffect(() => {
    set(undefined);
    if (!read) return;
    let current = true;
    const timer = setTimeout(() => {
      read().then(
        (answer) => current && set(answer),
        (e: unknown) => current && set({ error: toShownError(e).message }),
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, deps);
}

/** The format select's words for one format: what the engine needs for it, when it cannot take it as it is. */
function formatOptionLabel(facts: FormatFacts, f: ExportFormat): string {
  const refused = formatRefusal(facts, f) !== undefined;
  return `${EXPORT_FORMAT_LABELS[f]}${refused ? ' (needs glTFast or UnityGLTF)' : ''}`;
}

/** What export.plan said, in a list: "Will write: … / Not written: … because …". */
function PlanList({ plan, overwrite }: { plan: Plan; overwrite: boolean }) {
  return (
    <div class="export-plan" aria-live="polite" data-plan-format={plan.format ?? ''}>
      {plan.note && <p class="hint">{plan.note}</p>}
      <p>
        Will write into <code>{plan.targetDir}</code>:{' '}
        {plan.write.length === 0 ? 'nothing' : plan.write.map((f) => f.name).join(', ')}
        {plan.clips && plan.clips.written.length > 0 && ` (clips: ${plan.clips.written.join(', ')})`}
      </p>
      {plan.exists && !overwrite && (
        <p class="hint export-exists">
          An earlier export is there: tick “Replace an earlier export of the same name” to replace it, or change the
          name.
        </p>
      )}
      {(plan.skip.length > 0 || (plan.clips?.skipped.length ?? 0) > 0) && (
        <ul class="export-skipped" aria-label="Not written">
          {plan.skip.map((f) => (
            <li key={`${f.kind}:${f.name}`} data-skipped={f.kind}>
              Not written: {f.name.includes('.') ? <code>{f.name}</code> : f.name} because {f.why}
            </li>
          ))}
          {plan.clips?.skipped.map((c) => (
            <li key={`clip:${c.name}`} data-skipped="clip">
              Clip not written: {c.name} because {c.why}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * `shown`: the viewer showing the job's model, whose model the export previews (its ModelViewer's onShown).
 * `clips`: an animation job's clips, each a checkbox named by its prompt or library label (the prompts checked at first; library clips too when there is no prompt).
 */
export function ExportPanel({
  job,
  shown,
  clips,
  glb = false,
}: {
  job: JobView;
  shown: ShownModel | undefined;
  clips?: ExportClip[];
  /** The job's GLB is cached: the transforms (the default pivot among them) can be written. */
  glb?: boolean;
}) {
  const { info, settings } = useStore(appState);
  const [projectDir, setProjectDir] = useState(settings?.export.projectDir ?? '');
  const [detected, setDetected] = useState<Detected | { error: string } | undefined>();
  const [engine, setEngine] = useState<ExportTarget | 'auto'>('auto');
  const [format, setFormat] = useState<ExportFormat | 'auto'>('auto');
  const [flipped, setFlipped] = useState<ReadonlySet<string>>(new Set());
  const [plan, setPlan] = useState<Plan | { error: string } | undefined>();
  const [name, setName] = useState('');
  const [scaleMode, setScaleMode] = useState('none');
  const [scaleValue, setScaleValue] = useState('1');
  // `default`: the target's default pivot (shared/export-options.ts defaultPivot), until the user picks one.
  const [pivot, setPivot] = useState('default');
  const [upAxis, setUpAxis] = useState('none');
  const [overwrite, setOverwrite] = useState(false);
  // The target profile (#31): its fixes are applied by the export; `none` writes the asset as it came.
  const [profile, setProfile] = useState(() => exportProfileOf(settings));
  const [preview, setPreview] = useState<{ min: number[]; max: number[] } | undefined>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CommandOutput<'export.run'> | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const detectedEngine = detected && 'engine' in detected ? detected.engine : undefined;
  const target: ExportTarget = engine !== 'auto' ? engine : (detectedEngine ?? 'folder');
  const pivotByDefault = defaultPivot(target, { animated: !!clips, glb });
  const transforms = transformsOf(
    scaleMode,
    scaleValue,
    pivot === 'default' ? (pivotByDefault ?? 'none') : pivot,
    upAxis,
  );
  const key = JSON.stringify(transforms ?? {});
  // The glTF package is the detected Unity project's; another engine chosen by hand has none to look for.
  const facts: FormatFacts = {
    engine: target,
    gltfPackage: detected && 'engine' in detected && detected.engine === target ? detected.gltfPackage : undefined,
  };
  const chosenClips = clips?.filter((c) => clipChecked(c, clips, flipped)).map((c) => c.id);
  /** The options export.plan and export.run share. */
  const request = () => {
    const input: Omit<CommandInput<'export.run'>, 'jobId'> = { projectDir: projectDir.trim() };
    if (engine !== 'auto') input.engine = engine;
    if (format !== 'auto') input.format = format;
    if (name.trim()) input.name = name.trim();
    if (transforms) input.transforms = transforms;
    if (profile !== NO_PROFILE) input.profile = profile;
    // Always the clips checked: the job's own (a prompts job's prompts), never the rest of its session.
    if (clips && clips.length > 0 && chosenClips && chosenClips.length > 0) input.clips = chosenClips;
    return input;
  };
  const planKey = JSON.stringify(request());

  // Detect the project's engine when the folder changes (after typing stops).
  const dir = projectDir.trim();
  const detect = dir ? () => getBridge().call('export.detect', { projectDir: dir }) : undefined;
  useReadAfterTyping(detect, setDetected, [projectDir]);

  // What the export will write, said again when an option changes (after typing stops).
  // A result or error shown is that of other options (or another job): it goes. Not when the job's files
  // arrive (outputsFetched): the export just made stays on screen while the plan is read again.
  useEffect(() => {
    setResult(undefined);
    setError(undefined);
  }, [planKey, job.id]);

  const readPlan = () => getBridge().call('export.plan', { jobId: job.id, ...request() });
  useReadAfterTyping(dir && job.state === 'succeeded' ? readPlan : undefined, setPlan, [
    planKey,
    job.id,
    job.state,
    job.outputsFetched,
  ]);

  // Preview the transforms on the shown model, when one is shown and when they change.
  useEffect(() => {
    const box = shown?.viewer.previewTransforms(transforms ?? {});
    if (box) setPreview(box);
  }, [key, shown]);

  const chooseFolder = async () => {
    try {
      const { path } = await getBridge().call('dialog.chooseFolder', { title: 'Project folder to export into' });
      if (path) setProjectDir(path);
    } catch (e) {
      setError(toShownError(e));
    }
  };

  const run = async () => {
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      const input: CommandInput<'export.run'> = { jobId: job.id, ...request() };
      if (overwrite) input.overwrite = true;
      setResult(await getBridge().call('export.run', input));
    } catch (e) {
      setError(toShownError(e));
    } finally {
      setBusy(false);
    }
  };

  const twice = doubleConversion(target, transforms);
  const noClips = clips !== undefined && clips.length > 0 && chosenClips?.length === 0;
  return (
    <form
      class="export-form"
      aria-label="Export to a project"
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      <div class="field">
        <label for="export-dir">Project folder</label>
        <div class="export-dir">
          <input
            id="export-dir"
            type="text"
            value={projectDir}
            placeholder="/path/to/your/game/project"
            aria-describedby="export-dir-hint"
            onInput={(e) => setProjectDir(e.currentTarget.value)}
          />
          {info?.transport === 'electron' && (
            <button type="button" onClick={() => void chooseFolder()}>
              Choose…
            </button>
          )}
        </div>
        <p class="hint" id="export-dir-hint" data-detected={detectedEngine}>
          {!detected
            ? 'The folder of a Godot, Unity or Unreal project, or any folder.'
            : 'engine' in detected
              ? [resolvedText(projectDir.trim(), detected), detectedText(detected)].filter(Boolean).join(' ')
              : detected.error}
        </p>
      </div>
      <div class="field">
        <label for="export-engine">Engine preset</label>
        <Select id="export-engine" value={engine} onChange={setEngine}>
          <option value="auto">Detected{detectedEngine ? ` (${EXPORT_TARGET_LABELS[detectedEngine]})` : ''}</option>
          <Options values={EXPORT_TARGETS} labels={EXPORT_TARGET_LABELS} />
        </Select>
      </div>
      <div class="field">
        <label for="export-format">Format</label>
        <Select id="export-format" value={format} describedBy="export-format-hint" onChange={setFormat}>
          <option value="auto">
            {EXPORT_TARGET_LABELS[target]}'s default ({EXPORT_FORMAT_LABELS[defaultFormat(facts)]})
          </option>
          {EXPORT_FORMATS.map((f) => (
            <option key={f} value={f} disabled={formatRefusal(facts, f) !== undefined}>
              {formatOptionLabel(facts, f)}
            </option>
          ))}
        </Select>
        <p class="hint" id="export-format-hint" data-format-needs={target}>
          {formatNeeds(facts)} One format per export, so the engine imports the model once.
        </p>
      </div>
      <ExportProfileField job={job} profile={profile} onChange={setProfile} />
      {clips && clips.length > 0 && (
        <fieldset class="export-clips">
          <legend>Clips exported (your prompts; library clips when ticked)</legend>
          {clips.map((c) => (
            <label key={c.id}>
              <input
                type="checkbox"
                data-clip={c.id}
                checked={clipChecked(c, clips, flipped)}
                onChange={() => {
                  const next = new Set(flipped);
                  if (next.has(c.id)) next.delete(c.id);
                  else next.add(c.id);
                  setFlipped(next);
                }}
              />
              {c.name}
            </label>
          ))}
          {noClips && <p class="hint">Choose at least one clip.</p>}
        </fieldset>
      )}
      <TextField
        id="export-name"
        label="Name"
        maxLength={64}
        value={name}
        onChange={setName}
        placeholder="from the job"
      />
      <fieldset class="export-transforms">
        <legend>Transforms (previewed in the view above)</legend>
        <p class="hint" id="export-axes" data-axes={target}>
          {ENGINE_AXES[target]} Leave scale and up axis as they are unless the model itself is wrong.
        </p>
        <div class="field">
          <label for="export-scale">Scale</label>
          <Select id="export-scale" value={scaleMode} onChange={setScaleMode}>
            <option value="none">As is</option>
            <option value="factor">By a factor</option>
            <option value="height">To a height (m)</option>
          </Select>
          {scaleMode !== 'none' && (
            <input
              id="export-scale-value"
              type="number"
              min="0"
              step="any"
              aria-label={scaleMode === 'factor' ? 'Scale factor' : 'Height in metres'}
              value={scaleValue}
              onInput={(e) => setScaleValue(e.currentTarget.value)}
            />
          )}
        </div>
        <div class="field">
          <label for="export-pivot">Pivot</label>
          <Select id="export-pivot" value={pivot} describedBy="export-pivot-hint" onChange={setPivot}>
            <option value="default">{pivotByDefault ? 'Bottom centre (default)' : 'As is (default)'}</option>
            <option value="none">As is</option>
            <Options values={PIVOTS} labels={PIVOT_LABELS} />
          </Select>
        </div>
        <p class="hint" id="export-pivot-hint" data-pivot-default={pivotByDefault ?? 'none'}>
          {pivotByDefault
            ? `Pivot: bottom centre by default for ${EXPORT_TARGET_LABELS[target]}. ${DEFAULT_PIVOT_WHY}`
            : target === 'folder'
              ? 'Pivot: as is by default for a plain folder; game engine presets move it to the bottom centre.'
              : clips
                ? 'Pivot: as is by default for an animated character: its rig keeps its own origin (usually its feet).'
                : 'Pivot: as is by default: moving the origin is done on the GLB, and this job has none cached.'}
        </p>
        <div class="field">
          <label for="export-up">Up axis</label>
          <Select id="export-up" value={upAxis} onChange={setUpAxis}>
            <option value="none">Y up (as glTF)</option>
            <Options values={UP_AXES} labels={UP_AXIS_LABELS} />
          </Select>
        </div>
        {preview && (
          <p class="hint" data-preview-min={preview.min.map((v) => v.toFixed(3)).join(' ')} aria-live="polite">
            The model will be {metres(preview.max[0]! - preview.min[0]!)} × {metres(preview.max[1]! - preview.min[1]!)}{' '}
            × {metres(preview.max[2]! - preview.min[2]!)} m, lowest point at y = {metres(preview.min[1]!)}.
          </p>
        )}
        {twice && (
          <p class="viewer-warnings export-twice" role="alert">
            {twice}
          </p>
        )}
      </fieldset>
      <div class="field export-overwrite">
        <label>
          <input
            id="export-overwrite"
            type="checkbox"
            checked={overwrite}
            aria-describedby="export-overwrite-hint"
            onChange={(e) => setOverwrite(e.currentTarget.checked)}
          />
          Replace an earlier export of the same name
        </label>
        <p class="hint" id="export-overwrite-hint">
          Its files are replaced; what the engine or you added beside them (Unity's .meta files, materials) is kept.
        </p>
      </div>
      {plan &&
        ('error' in plan ? (
          <p class="job-error export-plan-error">{plan.error}</p>
        ) : (
          <PlanList plan={plan} overwrite={overwrite} />
        ))}
      <button type="submit" disabled={busy || !projectDir.trim() || noClips}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
      <ErrorBox error={error} title="The export did not happen" />
      {result && (
        <div class="export-result" role="status">
          <p>
            Exported for {isOneOf(EXPORT_TARGETS, result.engine) ? EXPORT_TARGET_LABELS[result.engine] : result.engine}{' '}
            into <code>{result.targetDir}</code>
            {result.replaced
              ? `, replacing the earlier export${result.kept.length > 0 ? ` (kept: ${result.kept.join(', ')})` : ''}`
              : ''}
            :
          </p>
          <ul>
            {result.files.map((f) => (
              <li key={f.path}>
                <code>{f.path}</code> ({formatBytes(f.size)})
              </li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}
