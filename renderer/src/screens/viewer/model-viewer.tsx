// The model viewer component: a canvas with view controls and a stats panel. Babylon.js (viewer/babylon.js,
// see renderer/viewer/load-babylon.ts) is loaded and the viewer made when the component mounts, so the rest of the app never
// pays for it and it is usually ready by the time a file is opened. A file that cannot
// be opened shows its reason here; the viewer and the app stay usable and the next file loads normally.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { JointName } from '../../../../shared/joints.ts';
import {
  loadBabylon,
  PBR_MODES,
  type ModelSource,
  type ModelStats,
  type TextureInfo,
  type Viewer,
  type ViewMode,
} from '../../../viewer/index.ts';
import { Progress } from '../../components/ui.tsx';
import { AnimationControls } from './animation-controls.tsx';
import { EnvironmentControls } from './environment-controls.tsx';
import { type FileBytes, metres, ModelFacts } from './model-facts.tsx';
import { TexelHint, texelSquares, useViewerProfile } from './budget.tsx';
import { ValidationPanel } from './validation-panel.tsx';
import { ViewButtons } from './view-buttons.tsx';

type Status =
  | { state: 'empty' }
  | { state: 'loading'; name: string; share?: number }
  | { state: 'ready'; name: string; stats: ModelStats }
  | { state: 'error'; name: string; message: string };

function sourceName(source: ModelSource): string {
  return 'files' in source
    ? (source.files.find((f) => /\.(glb|gltf|obj|fbx|usdz|usda)$/i.test(f.name))?.name ??
        source.files[0]?.name ??
        'file')
    : source.name;
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Babylon prefixes its loader errors with the URL; keep the reason readable.
  return (
    text
      .replace(/^Unable to load from [^:]+:[^:]*: ?/, '')
      .replace(/^(blob|file|https?):\S*\s*/, '')
      .trim() || 'the file could not be read'
  );
}

const MODES: readonly { mode: ViewMode; label: string; title: string }[] = [
  { mode: 'textured', label: 'Textured', title: "The model's own materials and textures" },
  { mode: 'wireframe', label: 'Wireframe', title: 'The triangles as lines' },
  { mode: 'normals', label: 'Normals', title: 'Surface normals as colours (x, y, z in red, green, blue)' },
  { mode: 'uv', label: 'UV checker', title: 'A checker texture on every mesh with UVs: stretching and seams show' },
  {
    mode: 'texel',
    label: 'Texel density',
    title: "A checker scaled to the profile's pixels per metre: squares of equal size mean equal texel density",
  },
  { mode: 'albedo', label: 'Albedo', title: 'The PBR base colour channel' },
  { mode: 'metallic', label: 'Metallic', title: 'The PBR metallic channel (white is metal)' },
  { mode: 'roughness', label: 'Roughness', title: 'The PBR roughness channel (white is rough)' },
  { mode: 'normalmap', label: 'Normal map', title: 'The PBR shading normals, with the normal map applied' },
];

/** The downloaded screenshot's name: the model's file name without its extension, then .png. */
const shotName = (name: string) => `${name.replace(/\.[^./\\]+$/, '') || 'view'}.png`;

/** The model file's size, and how many files (and bytes) came beside it; undefined when not known. */
function fileBytes(source: ModelSource): FileBytes | undefined {
  if (!('files' in source)) return source.size ? { model: source.size, others: 0, othersBytes: 0 } : undefined;
  const main = source.files.find((f) => f.name === sourceName(source)) ?? source.files[0];
  if (!main) return undefined;
  const others = source.files.filter((f) => f !== main);
  return { model: main.size, others: others.length, othersBytes: others.reduce((n, f) => n + f.size, 0) };
}

/**
 * The explicit handle on a viewer showing a model, for the panels beside it (the export's preview, the compare
 * view's camera link): a new object each time the viewer shows a model, so a panel's effect runs again.
 */
export interface ShownModel {
  viewer: Viewer;
  /** The shown file's name. */
  name: string;
}

/**
 * `keepCamera`: a new source keeps the camera (files of the same character); `highlightJoint`: the bones of
 * that joint are highlighted in the skeleton; `children`: shown above the animation controls (a file picker);
 * `onShown`: told the viewer each time a model is shown, undefined while none is (loading, failed, gone).
 * `under`: shown under the 3D view, in its column (a mesh-animation session's joints picture).
 */
export function ModelViewer({
  source,
  label,
  keepCamera,
  highlightJoint,
  clipName,
  fileLabel,
  children,
  onShown,
  under,
}: {
  source: ModelSource | undefined;
  label: string;
  keepCamera?: boolean;
  highlightJoint?: JointName | undefined;
  /** What a user calls a clip of the file (a prompt's text rather than an id); default the clip's own name. */
  clipName?: ((name: string, index: number) => string) | undefined;
  /** What the facts call the file (a clip's prompt rather than its output kind); default the source's name. */
  fileLabel?: string | undefined;
  children?: ComponentChildren;
  onShown?: ((shown: ShownModel | undefined) => void) | undefined;
  under?: ComponentChildren;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<Promise<Viewer> | undefined>(undefined);
  const [status, setStatus] = useState<Status>({ state: 'empty' });
  const [mode, setMode] = useState<ViewMode>('textured');
  const [bounds, setBounds] = useState(false);
  const [live, setLive] = useState<Viewer | undefined>();
  const [textures, setTextures] = useState<TextureInfo[] | undefined>();
  const loadedOnce = useRef(false);
  const tell = useRef(onShown);
  tell.current = onShown;

  const viewer = (): Promise<Viewer> => {
    viewerRef.current ??= loadBabylon().then((m) => m.createViewer(canvasRef.current!));
    return viewerRef.current;
  };

  useEffect(() => {
    // The engine, scene, grid and environment are made now, while the user picks a file, rather than after;
    // a failure (no WebGL) is shown when a file is opened.
    void viewer().catch(() => {});
    return () => {
      tell.current?.(undefined);
      void viewerRef.current?.then(
        (v) => v.dispose(),
        () => {},
      );
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
    tell.current?.(undefined);
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
        return v.load(source, { keepCamera: keep, onProgress }).then(async (stats) => (await v.shown(), { v, stats }));
      })
      .then(
        ({ v, stats }) => {
          loadedOnce.current = true;
          if (!current) return;
          setStatus({ state: 'ready', name, stats });
          tell.current?.({ viewer: v, name });
          // Resolutions are known once the textures have loaded (after the first frame, often).
          void v.textures().then(
            (list) => current && setTextures(list),
            () => {},
          );
        },
        (e: unknown) => current && setStatus({ state: 'error', name, message: reasonOf(e) }),
      );
    return () => {
      current = false;
    };
  }, [source]);

  useEffect(() => {
    void viewerRef.current?.then(
      (v) => v.setMode(mode),
      () => {},
    );
  }, [mode]);
  // The texel checker's squares: from the model's largest texture and the profile's texel density.
  const texelDensity = useViewerProfile()?.texelDensity;
  useEffect(() => {
    if (texelDensity === undefined) return;
    void viewerRef.current?.then(
      (v) => v.setTexelTiling(texelSquares(textures, texelDensity)),
      () => {},
    );
  }, [textures, texelDensity]);
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
    void viewerRef.current?.then(
      (v) => v.showBounds(bounds),
      () => {},
    );
  }, [bounds]);
  useEffect(() => live?.highlightJoint(highlightJoint), [live, highlightJoint]);

  const stats = status.state === 'ready' ? status.stats : undefined;
  const bytes = source ? fileBytes(source) : undefined;
  const gltf =
    !!source &&
    ('files' in source
      ? /\.(glb|gltf)$/i.test(sourceName(source))
      : source.format === 'glb' || source.format === 'gltf');
  return (
    <div
      ref={rootRef}
      class="viewer"
      data-state={status.state}
      data-name={status.state === 'empty' ? undefined : status.name}
    >
      <div class="viewer-main">
        <div class="viewer-stage">
          <canvas
            ref={canvasRef}
            class="viewer-canvas"
            tabIndex={0}
            aria-label={`3D view of ${label}. Drag to orbit, right-drag or shift-drag to pan, wheel to zoom.`}
          />
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
        {under}
      </div>
      <div class="viewer-side">
        <fieldset class="viewer-controls" aria-label="View">
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
                title={
                  off
                    ? `${m.label}: this model has no PBR materials, so there is no ${m.label.toLowerCase()} channel to show`
                    : m.title
                }
                onClick={() => setMode(m.mode)}
              >
                {m.label}
              </button>
            );
          })}
          <button type="button" aria-pressed={bounds} onClick={() => setBounds(!bounds)}>
            Bounding box
          </button>
          <button
            type="button"
            disabled={!stats}
            title="The whole model from its front three-quarter view, as it opened"
            onClick={() => void viewerRef.current?.then((v) => v.frame())}
          >
            Frame
          </button>
          <button
            type="button"
            disabled={!stats}
            title="Save the current view as a PNG"
            onClick={() => void screenshot()}
          >
            Screenshot
          </button>
        </fieldset>
        <ViewButtons
          enabled={!!stats}
          root={rootRef}
          onView={(view) =>
            void viewerRef.current?.then(
              (v) => v.setView(view),
              () => {},
            )
          }
        />
        {mode === 'texel' && <TexelHint textures={textures} />}
        <EnvironmentControls viewer={live} />
        {children}
        {stats && live && stats.animations > 0 && <AnimationControls viewer={live} clipName={clipName} />}
        {stats && stats.warnings.length > 0 && (
          <ul class="viewer-warnings" role="status" aria-label="How the view differs from the file">
            {stats.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        )}
        {(stats || status.state === 'error') && source && gltf && <ValidationPanel source={source} />}
        {stats && status.state === 'ready' && (
          <ModelFacts name={fileLabel ?? status.name} stats={stats} bytes={bytes} textures={textures} />
        )}
      </div>
    </div>
  );
}
