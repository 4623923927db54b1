// The model viewer component: a canvas with view controls and a stats panel. Babylon.js (viewer/babylon.js,
// see load-babylon.ts) is loaded and the viewer made when the component mounts, so the rest of the app never
// pays for it and it is usually ready by the time a file is opened. A file that cannot
// be opened shows its reason here; the viewer and the app stay usable and the next file loads normally.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { JointName } from '../../shared/joints.ts';
import { AnimationControls } from './animation.tsx';
import { Progress } from '../src/components/ui.tsx';
import { formatBytes } from '../src/util.ts';
import { loadBabylon } from './load-babylon.ts';
import type { EnvironmentChoice, Viewer } from './scene.ts';
import { PBR_MODES, type ModelSource, type ModelStats, type TextureInfo, type ViewMode } from './types.ts';
import type { ValidationSummary } from './validate.ts';

type Status = { state: 'empty' } | { state: 'loading'; name: string; share?: number } | { state: 'ready'; name: string; stats: ModelStats } | { state: 'error'; name: string; message: string };

function sourceName(source: ModelSource): string {
  return 'files' in source ? (source.files.find((f) => /\.(glb|gltf|obj|fbx|usdz|usda)$/i.test(f.name))?.name ?? source.files[0]?.name ?? 'file') : source.name;
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Babylon prefixes its loader errors with the URL; keep the reason readable.
  return text.replace(/^Unable to load from [^:]+:[^:]*: ?/, '').replace(/^(blob|file|https?):\S*\s*/, '').trim() || 'the file could not be read';
}

const MODES: readonly { mode: ViewMode; label: string; title: string }[] = [
  { mode: 'textured', label: 'Textured', title: "The model's own materials and textures" },
  { mode: 'wireframe', label: 'Wireframe', title: 'The triangles as lines' },
  { mode: 'normals', label: 'Normals', title: 'Surface normals as colours (x, y, z in red, green, blue)' },
  { mode: 'uv', label: 'UV checker', title: 'A checker texture on every mesh with UVs: stretching and seams show' },
  { mode: 'albedo', label: 'Albedo', title: 'The PBR base colour channel' },
  { mode: 'metallic', label: 'Metallic', title: 'The PBR metallic channel (white is metal)' },
  { mode: 'roughness', label: 'Roughness', title: 'The PBR roughness channel (white is rough)' },
  { mode: 'normalmap', label: 'Normal map', title: 'The PBR shading normals, with the normal map applied' },
];

/** The downloaded screenshot's name: the model's file name without its extension, then .png. */
const shotName = (name: string) => `${name.replace(/\.[^./\\]+$/, '') || 'view'}.png`;

/** The model file's size, and how many files (and bytes) came beside it; undefined when not known. */
function fileBytes(source: ModelSource): { model: number; others: number; othersBytes: number } | undefined {
  if (!('files' in source)) return source.size ? { model: source.size, others: 0, othersBytes: 0 } : undefined;
  const main = source.files.find((f) => f.name === sourceName(source)) ?? source.files[0];
  if (!main) return undefined;
  const others = source.files.filter((f) => f !== main);
  return { model: main.size, others: others.length, othersBytes: others.reduce((n, f) => n + f.size, 0) };
}

/** A texture's name as a file name: Babylon's `file:` prefix, folders and queries left out; data URIs "embedded". */
function textureName(name: string): string {
  if (name.startsWith('data:') || name.startsWith('blob:')) return 'embedded';
  return name.replace(/^file:/, '').split(/[?#]/)[0]!.split('/').pop() || name;
}

const metres = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3));
const count = (n: number) => n.toLocaleString('en');

/**
 * `keepCamera`: a new source keeps the camera (files of the same character); `highlightJoint`: the bones of
 * that joint are highlighted in the skeleton; `children`: shown above the animation controls (a file picker).
 */
export function ModelViewer({
  source,
  label,
  keepCamera,
  highlightJoint,
  children,
}: {
  source: ModelSource | undefined;
  label: string;
  keepCamera?: boolean;
  highlightJoint?: JointName | undefined;
  children?: ComponentChildren;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const viewerRef = useRef<Promise<Viewer> | undefined>(undefined);
  const [status, setStatus] = useState<Status>({ state: 'empty' });
  const [mode, setMode] = useState<ViewMode>('textured');
  const [bounds, setBounds] = useState(false);
  const [live, setLive] = useState<Viewer | undefined>();
  const [textures, setTextures] = useState<TextureInfo[] | undefined>();
  const loadedOnce = useRef(false);

  const viewer = (): Promise<Viewer> => {
    viewerRef.current ??= loadBabylon().then((m) => m.createViewer(canvasRef.current!));
    return viewerRef.current;
  };

  useEffect(() => {
    // The engine, scene, grid and environment are made now, while the user picks a file, rather than after;
    // a failure (no WebGL) is shown when a file is opened.
    void viewer().catch(() => {});
    return () => {
      void viewerRef.current?.then((v) => v.dispose(), () => {});
    };
  }, []);

  // A layout effect: the load starts right after this render, not after the next paint (a useEffect would
  // wait for an animation frame first).
  useLayoutEffect(() => {
    if (!source) return;
    const name = sourceName(source);
    let current = true;
    setStatus({ state: 'loading', name });
    setTextures(undefined);
    const keep = !!keepCamera && loadedOnce.current;
    viewer()
      .then((v) => {
        setLive(v);
        // The share read so far, for a large file from the cache (a few updates per second are plenty).
        let shown = -1;
        const onProgress = (share: number) => {
          const percent = Math.floor(share * 100);
          if (current && percent >= shown + 5) setStatus({ state: 'loading', name, share: (shown = percent) / 100 });
        };
        // The model is drawn before the panels change: their layout and painting would delay its first frame.
        return v.load(source, { keepCamera: keep, onProgress }).then(async (stats) => (await v.shown(), stats));
      })
      .then(
        (stats) => {
          loadedOnce.current = true;
          if (!current) return;
          setStatus({ state: 'ready', name, stats });
          // Resolutions are known once the textures have loaded (after the first frame, often).
          void viewerRef.current?.then((v) => v.textures()).then((list) => current && setTextures(list), () => {});
        },
        (e: unknown) => current && setStatus({ state: 'error', name, message: reasonOf(e) }),
      );
    return () => {
      current = false;
    };
  }, [source]);

  useEffect(() => {
    void viewerRef.current?.then((v) => v.setMode(mode), () => {});
  }, [mode]);
  // A model without PBR materials has no channels to show: back to Textured.
  const pbr = status.state === 'ready' && status.stats.pbr;
  useEffect(() => {
    if (status.state === 'ready' && !status.stats.pbr && PBR_MODES.includes(mode)) setMode('textured');
  }, [status]);

  const screenshot = async () => {
    if (status.state !== 'ready' || !viewerRef.current) return;
    const blob = await (await viewerRef.current).screenshot();
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = shotName(status.name);
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  useEffect(() => {
    void viewerRef.current?.then((v) => v.showBounds(bounds), () => {});
  }, [bounds]);
  useEffect(() => live?.highlightJoint(highlightJoint), [live, highlightJoint]);

  const stats = status.state === 'ready' ? status.stats : undefined;
  const bytes = source ? fileBytes(source) : undefined;
  const gltf = !!source && ('files' in source ? /\.(glb|gltf)$/i.test(sourceName(source)) : source.format === 'glb' || source.format === 'gltf');
  return (
    <div class="viewer" data-state={status.state} data-name={status.state === 'empty' ? undefined : status.name}>
      <div class="viewer-stage">
        <canvas ref={canvasRef} class="viewer-canvas" tabIndex={0} aria-label={`3D view of ${label}. Drag to orbit, right-drag or shift-drag to pan, wheel to zoom.`} />
        {status.state === 'empty' && <p class="viewer-overlay muted">No model open.</p>}
        {status.state === 'loading' && (
          <div class="viewer-overlay" role="status">
            <p>Opening {status.name}…</p>
            {status.share !== undefined && <Progress percent={status.share * 100} label={`Reading ${status.name}`} />}
          </div>
        )}
        {status.state === 'error' && (
          <div class="viewer-overlay viewer-error" role="alert">
            <strong>Could not open {status.name}.</strong> {status.message}
          </div>
        )}
        {stats && bounds && (
          <p class="viewer-dims" aria-live="polite">
            {metres(stats.size[0])} × {metres(stats.size[1])} × {metres(stats.size[2])} m
          </p>
        )}
      </div>
      <div class="viewer-side">
        <div class="viewer-controls" role="group" aria-label="View">
          {MODES.map((m) => {
            const channel = PBR_MODES.includes(m.mode);
            const off = channel && status.state === 'ready' && !pbr;
            return (
              <button
                key={m.mode}
                type="button"
                data-mode={m.mode}
                aria-pressed={mode === m.mode}
                disabled={off}
                title={off ? `${m.label}: this model has no PBR materials, so there is no ${m.label.toLowerCase()} channel to show` : m.title}
                onClick={() => setMode(m.mode)}
              >
                {m.label}
              </button>
            );
          })}
          <button type="button" aria-pressed={bounds} onClick={() => setBounds(!bounds)}>
            Bounding box
          </button>
          <button type="button" disabled={!stats} onClick={() => void viewerRef.current?.then((v) => v.frame())}>
            Frame
          </button>
          <button type="button" disabled={!stats} title="Save the current view as a PNG" onClick={() => void screenshot()}>
            Screenshot
          </button>
        </div>
        <EnvironmentControls viewer={live} />
        {children}
        {stats && live && stats.animations > 0 && <AnimationControls viewer={live} />}
        {stats && stats.warnings.length > 0 && (
          <ul class="viewer-warnings" role="status" aria-label="How the view differs from the file">
            {stats.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
        {(stats || status.state === 'error') && source && gltf && <ValidationPanel source={source} />}
        {stats && (
          <dl class="facts viewer-stats" aria-label="Model statistics">
            <dt>File</dt>
            <dd>{status.state === 'ready' && status.name}</dd>
            <dt>Triangles</dt>
            <dd data-stat="triangles">{count(stats.triangles)}</dd>
            <dt>Vertices</dt>
            <dd data-stat="vertices">{count(stats.vertices)}</dd>
            <dt>Meshes</dt>
            <dd data-stat="meshes">{count(stats.meshes)}</dd>
            <dt>Materials</dt>
            <dd data-stat="materials">{count(stats.materials)}</dd>
            {bytes && (
              <>
                <dt>File size</dt>
                <dd data-stat="file-size">{formatBytes(bytes.model) + (bytes.others ? ` (+ ${bytes.others} beside it: ${formatBytes(bytes.othersBytes)})` : '')}</dd>
              </>
            )}
            <dt>Textures</dt>
            <dd data-stat="textures">{count(stats.textures)}</dd>
            {textures && textures.length > 0 && (
              <>
                <dt>Texture memory</dt>
                <dd data-stat="texture-memory">
                  {formatBytes(textures.reduce((n, t) => n + t.gpuBytes, 0))} on the GPU
                  <ul class="texture-list" aria-label="Textures">
                    {textures.map((t, i) => (
                      <li key={i} data-width={t.width} data-height={t.height}>
                        <span class="texture-name">{textureName(t.name)}</span> {t.width} × {t.height}, {formatBytes(t.gpuBytes)}
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            <dt>Animations</dt>
            <dd data-stat="animations">{count(stats.animations)}</dd>
            <dt>Size (m)</dt>
            <dd data-stat="size">
              {metres(stats.size[0])} × {metres(stats.size[1])} × {metres(stats.size[2])}
            </dd>
            <dt>Min</dt>
            <dd>{stats.min.map(metres).join(', ')}</dd>
            <dt>Max</dt>
            <dd>{stats.max.map(metres).join(', ')}</dd>
          </dl>
        )}
      </div>
    </div>
  );
}

const ENVIRONMENTS: readonly { kind: 'studio' | 'none'; label: string; title: string }[] = [
  { kind: 'studio', label: 'Studio', title: 'A neutral studio: soft grey surroundings and soft-box lights (built with the app, nothing downloaded)' },
  { kind: 'none', label: 'None', title: 'No environment: the two lights only (metals look dark without an environment)' },
];

/**
 * Which environment lights PBR materials (image-based lighting): the studio (default), none, or a local
 * .hdr/.env file; and whether it shows, blurred, as the background. A file that cannot be used shows why
 * and the environment in use stays. Applied to the viewer once it exists (it starts with the studio).
 */
function EnvironmentControls({ viewer }: { viewer: Viewer | undefined }) {
  const id = useId();
  const [active, setActive] = useState<EnvironmentChoice>({ kind: 'studio' });
  const [reading, setReading] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [background, setBackground] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const request = useRef(0);

  const apply = (choice: EnvironmentChoice, name: string) => {
    const mine = ++request.current;
    setError(undefined);
    if (!viewer) return setActive(choice);
    setReading(name);
    viewer.setEnvironment(choice).then(
      () => mine === request.current && setActive(choice),
      (e: unknown) => mine === request.current && setError(e instanceof Error ? e.message : String(e)),
    ).finally(() => mine === request.current && setReading(undefined));
  };
  // The viewer starts with the studio: bring it to a choice made before it existed.
  useEffect(() => {
    if (viewer && active.kind !== 'studio') apply(active, active.kind === 'file' ? active.file.name : 'None');
  }, [viewer]);
  useEffect(() => viewer?.showEnvironmentBackground(background), [viewer, background]);

  const pick = (files: FileList | null) => {
    const file = files?.[0];
    if (file) apply({ kind: 'file', file }, file.name);
    if (fileRef.current) fileRef.current.value = ''; // the same file can be picked again
  };
  return (
    <fieldset class="viewer-environment" data-environment={active.kind} data-reading={reading ? 'true' : undefined} aria-describedby={`${id}-status`}>
      <legend>Environment</legend>
      <div class="viewer-controls" role="group" aria-label="Environment lighting">
        {ENVIRONMENTS.map((e) => (
          <button key={e.kind} type="button" data-environment={e.kind} aria-pressed={active.kind === e.kind} title={e.title} onClick={() => apply({ kind: e.kind }, e.label)}>
            {e.label}
          </button>
        ))}
        <button type="button" data-environment="file" aria-pressed={active.kind === 'file'} title="Light the model with your own environment: a Radiance .hdr panorama or a Babylon .env file (read here, nothing is uploaded)" onClick={() => fileRef.current?.click()}>
          Open .hdr/.env file…
        </button>
        <input ref={fileRef} id={`${id}-file`} class="visually-hidden viewer-environment-file" type="file" accept=".hdr,.env" tabIndex={-1} aria-label="Environment file (.hdr or .env)" onChange={(e) => pick(e.currentTarget.files)} />
      </div>
      <label class="viewer-environment-background">
        <input type="checkbox" checked={background} disabled={active.kind === 'none'} onChange={(e) => setBackground(e.currentTarget.checked)} /> Show as background (blurred)
      </label>
      <p id={`${id}-status`} class="hint" aria-live="polite">
        {reading ? `Reading ${reading}…` : active.kind === 'file' ? `In use: ${active.file.name}` : active.kind === 'studio' ? 'In use: the neutral studio' : 'In use: the lights only'}
      </p>
      {error && (
        <p class="item-error viewer-environment-error" role="alert">
          {error} The previous environment is still in use.
        </p>
      )}
    </fieldset>
  );
}

type Validation = { state: 'idle' } | { state: 'running' } | { state: 'done'; report: ValidationSummary } | { state: 'error'; message: string };

/** The Khronos glTF validator on the open file, on demand (validate.ts: loaded on first use, offline). */
function ValidationPanel({ source }: { source: ModelSource }) {
  const [v, setV] = useState<Validation>({ state: 'idle' });
  const current = useRef(source);
  useEffect(() => {
    current.current = source;
    setV({ state: 'idle' });
  }, [source]);
  const run = () => {
    setV({ state: 'running' });
    import('./validate.ts')
      .then((m) => m.validateModel(source))
      .then(
        (report) => current.current === source && setV({ state: 'done', report }),
        (e: unknown) => current.current === source && setV({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
  };
  const r = v.state === 'done' ? v.report : undefined;
  return (
    <section class="viewer-validation" data-state={v.state} aria-label="glTF validation">
      <button type="button" disabled={v.state === 'running'} title="Check the file against the glTF 2.0 specification (Khronos glTF validator, runs here)" onClick={run}>
        {v.state === 'running' ? 'Validating…' : 'Validate'}
      </button>
      {v.state === 'error' && <p class="item-error">The validator failed: {v.message}</p>}
      {r && (
        <div aria-live="polite">
          <p class={r.errors > 0 ? 'validation-counts item-error' : 'validation-counts'}>
            <span data-count="errors">{r.errors}</span> {r.errors === 1 ? 'error' : 'errors'}, <span data-count="warnings">{r.warnings}</span> {r.warnings === 1 ? 'warning' : 'warnings'},{' '}
            <span data-count="infos">{r.infos}</span> {r.infos === 1 ? 'info' : 'infos'}, <span data-count="hints">{r.hints}</span> {r.hints === 1 ? 'hint' : 'hints'}
          </p>
          {r.messages.length > 0 && (
            <ul class="validation-messages">
              {r.messages.map((m, i) => (
                <li key={i} data-severity={m.severity}>
                  <code>{m.code}</code> {m.message}
                  {m.pointer && <span class="muted"> at {m.pointer}</span>}
                </li>
              ))}
              {r.more > 0 && <li class="muted">…and {r.more} more</li>}
            </ul>
          )}
          <p class="hint">Khronos glTF validator {r.version}</p>
        </div>
      )}
    </section>
  );
}
