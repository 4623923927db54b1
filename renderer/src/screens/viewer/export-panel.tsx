// Export from the viewer: project folder (Electron's folder dialog, or a typed path in the browser; a path
// with `..` steps is shown resolved), engine preset (detected with export.detect), name, transforms (scale,
// pivot, up axis) and whether to replace an earlier export of the same name (keeping Unity's .meta files). The viewer shows what
// the export will write (renderer/viewer/sync.ts applies the same transforms to the shown model), then export.run writes it;
// the result (target folder, files) or the error is shown in words.
import { useEffect, useState } from 'preact/hooks';
import type { CommandInput, CommandOutput, JobView } from '../../../../shared/bridge/contract.ts';
import { EXPORT_TARGET_LABELS, EXPORT_TARGETS, PIVOTS, UP_AXES, type ExportTarget, type Pivot, type UpAxis } from '../../../../shared/export-options.ts';
import { getBridge } from '../../../bridge/index.ts';
import { loadBabylon, type PreviewTransforms } from '../../../viewer/index.ts';
import { appState } from '../../app-state.ts';
import { ErrorBox, Options } from '../../components/ui.tsx';
import { useStore } from '../../store.ts';
import { formatBytes, toShownError, type ShownError } from '../../util.ts';

const PIVOT_LABELS: Record<Pivot, string> = { 'bottom-center': 'Bottom centre (stands on the ground)', center: 'Centre of the box' };
const UP_AXIS_LABELS: Record<UpAxis, string> = { 'y-to-z': 'Z up (stand it up in a Z-up world)', 'z-to-y': 'Fix a model made Z up' };
const isOneOf = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);
const metres = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));

/** The transforms chosen in the form (undefined fields are left out: the export only takes what is set). */
function transformsOf(scaleMode: string, scaleValue: string, pivot: string, upAxis: string): PreviewTransforms | undefined {
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
  if (d.engine !== 'folder') return `${EXPORT_TARGET_LABELS[d.engine]} project found at ${d.root}.${d.newFolder ? ' The folder you typed does not exist yet: the export creates it.' : ''}`;
  return d.newFolder ? `New folder: the export creates ${d.root}.` : `No game project here: the export writes into ${d.root}.`;
}

/** A typed path with `..` steps, said resolved: where the export really goes (undefined for a plain path). */
function resolvedText(typed: string, d: CommandOutput<'export.detect'>): string | undefined {
  return typed.split(/[\\/]/).includes('..') ? `The folder you typed is ${d.dir}.` : undefined;
}

/** `stage`: the element holding the viewer whose model the export previews. */
export function ExportPanel({ job, stage }: { job: JobView; stage: () => HTMLElement | null }) {
  const { info, settings } = useStore(appState);
  const [projectDir, setProjectDir] = useState(settings?.export.projectDir ?? '');
  const [detected, setDetected] = useState<CommandOutput<'export.detect'> | { error: string } | undefined>();
  const [engine, setEngine] = useState<ExportTarget | 'auto'>('auto');
  const [name, setName] = useState('');
  const [scaleMode, setScaleMode] = useState('none');
  const [scaleValue, setScaleValue] = useState('1');
  const [pivot, setPivot] = useState('none');
  const [upAxis, setUpAxis] = useState('none');
  const [overwrite, setOverwrite] = useState(false);
  const [preview, setPreview] = useState<{ min: number[]; max: number[] } | undefined>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CommandOutput<'export.run'> | undefined>();
  const [error, setError] = useState<ShownError | undefined>();
  const transforms = transformsOf(scaleMode, scaleValue, pivot, upAxis);
  const key = JSON.stringify(transforms ?? {});

  // Detect the project's engine when the folder changes (after typing stops).
  useEffect(() => {
    const dir = projectDir.trim();
    setDetected(undefined);
    if (!dir) return;
    let current = true;
    const timer = setTimeout(() => {
      getBridge()
        .call('export.detect', { projectDir: dir })
        .then(
          (d) => current && setDetected(d),
          (e: unknown) => current && setDetected({ error: toShownError(e).message }),
        );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [projectDir]);

  // Preview the transforms on the shown model.
  useEffect(() => {
    const canvas = stage()?.querySelector<HTMLCanvasElement>('.viewer-canvas');
    if (!canvas) return;
    let current = true;
    void loadBabylon().then((m) => current && setPreview(m.previewTransforms(canvas, transforms ?? {})));
    return () => {
      current = false;
    };
  }, [key]);

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
      const input: CommandInput<'export.run'> = { jobId: job.id, projectDir: projectDir.trim() };
      if (engine !== 'auto') input.engine = engine;
      if (name.trim()) input.name = name.trim();
      if (transforms) input.transforms = transforms;
      if (overwrite) input.overwrite = true;
      setResult(await getBridge().call('export.run', input));
    } catch (e) {
      setError(toShownError(e));
    } finally {
      setBusy(false);
    }
  };

  const detectedEngine = detected && 'engine' in detected ? detected.engine : undefined;
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
          <input id="export-dir" type="text" value={projectDir} placeholder="/path/to/your/game/project" aria-describedby="export-dir-hint" onInput={(e) => setProjectDir(e.currentTarget.value)} />
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
        <select id="export-engine" value={engine} onChange={(e) => setEngine(e.currentTarget.value as ExportTarget | 'auto')}>
          <option value="auto">Detected{detectedEngine ? ` (${EXPORT_TARGET_LABELS[detectedEngine]})` : ''}</option>
          <Options values={EXPORT_TARGETS} labels={EXPORT_TARGET_LABELS} />
        </select>
      </div>
      <div class="field">
        <label for="export-name">Name</label>
        <input id="export-name" type="text" maxLength={64} value={name} placeholder="from the job" onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <fieldset class="export-transforms">
        <legend>Transforms (previewed in the view above)</legend>
        <div class="field">
          <label for="export-scale">Scale</label>
          <select id="export-scale" value={scaleMode} onChange={(e) => setScaleMode(e.currentTarget.value)}>
            <option value="none">As is</option>
            <option value="factor">By a factor</option>
            <option value="height">To a height (m)</option>
          </select>
          {scaleMode !== 'none' && (
            <input id="export-scale-value" type="number" min="0" step="any" aria-label={scaleMode === 'factor' ? 'Scale factor' : 'Height in metres'} value={scaleValue} onInput={(e) => setScaleValue(e.currentTarget.value)} />
          )}
        </div>
        <div class="field">
          <label for="export-pivot">Pivot</label>
          <select id="export-pivot" value={pivot} onChange={(e) => setPivot(e.currentTarget.value)}>
            <option value="none">As is</option>
            <Options values={PIVOTS} labels={PIVOT_LABELS} />
          </select>
        </div>
        <div class="field">
          <label for="export-up">Up axis</label>
          <select id="export-up" value={upAxis} onChange={(e) => setUpAxis(e.currentTarget.value)}>
            <option value="none">Y up (as glTF)</option>
            <Options values={UP_AXES} labels={UP_AXIS_LABELS} />
          </select>
        </div>
        {preview && (
          <p class="hint" data-preview-min={preview.min.map((v) => v.toFixed(3)).join(' ')} aria-live="polite">
            Will be written {metres(preview.max[0]! - preview.min[0]!)} × {metres(preview.max[1]! - preview.min[1]!)} × {metres(preview.max[2]! - preview.min[2]!)} m, lowest point at y = {metres(preview.min[1]!)}.
          </p>
        )}
      </fieldset>
      <div class="field export-overwrite">
        <label>
          <input id="export-overwrite" type="checkbox" checked={overwrite} aria-describedby="export-overwrite-hint" onChange={(e) => setOverwrite(e.currentTarget.checked)} />
          Replace an earlier export of the same name
        </label>
        <p class="hint" id="export-overwrite-hint">
          Its files are replaced; what the engine or you added beside them (Unity's .meta files, materials) is kept.
        </p>
      </div>
      <button type="submit" disabled={busy || !projectDir.trim()}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
      <ErrorBox error={error} title="The export did not happen" />
      {result && (
        <div class="export-result" role="status">
          <p>
            Exported for {isOneOf(EXPORT_TARGETS, result.engine) ? EXPORT_TARGET_LABELS[result.engine] : result.engine} into <code>{result.targetDir}</code>
            {result.replaced ? `, replacing the earlier export${result.kept.length > 0 ? ` (kept: ${result.kept.join(', ')})` : ''}` : ''}:
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
