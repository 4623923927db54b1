// The viewer's public surface, shared by the UI (renderer/src/screens/viewer/, in app.js) and the Babylon
// side (viewer/babylon.js, loaded on demand): the Viewer a screen drives and the data it gets back. No
// Babylon imports here (the UI would pull Babylon into app.js).
import type { CommandInput } from '../../shared/bridge/contract.ts';
import type { JointName } from '../../shared/joints.ts';
import type { ViewName } from '../../shared/views.ts';

export type ModelFormat = 'glb' | 'gltf' | 'obj' | 'fbx' | 'usdz' | 'usda';

/** A model to show: a URL the host serves (e.g. a cache.outputs URL), or local files (a model and the files beside it). */
export type ModelSource = UrlSource | { files: File[] };
/** `size`: the file's size in bytes when the caller knows it (a cached output's). */
export type UrlSource = { url: string; format: ModelFormat; name: string; size?: number | null };

/**
 * Textured (the file's own look), wireframe, surface normals as colours, a UV checker, a texel-density checker
 * (squares of a fixed number of texels: setTexelTiling), and the PBR channels.
 */
export type ViewMode =
  | 'textured'
  | 'wireframe'
  | 'normals'
  | 'uv'
  | 'texel'
  | 'albedo'
  | 'metallic'
  | 'roughness'
  | 'normalmap';

/** The view modes that show a channel of PBR materials (only offered when the model has one). */
export const PBR_MODES: readonly ViewMode[] = ['albedo', 'metallic', 'roughness', 'normalmap'];

/** A texture of the model: its resolution and what it takes in GPU memory (RGBA8, with mipmaps when it has them). */
export interface TextureInfo {
  name: string;
  width: number;
  height: number;
  gpuBytes: number;
}

export interface ModelStats {
  triangles: number;
  vertices: number;
  meshes: number;
  materials: number;
  textures: number;
  animations: number;
  /** Whether any material is PBR (the channel views need one). */
  pbr: boolean;
  /** Bounding box size, min and max (x, y, z) in scene units: metres for glTF. */
  size: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
  /** What is shown differs from the file and why (e.g. an OBJ's material library is missing). */
  warnings: string[];
}

/** The selected clip and where it is: frames in the clip's own frame numbers (from…to). */
export interface Playback {
  clip: number;
  name: string;
  playing: boolean;
  frame: number;
  from: number;
  to: number;
  speed: number;
  loop: boolean;
}

/**
 * The environment that lights the model (image-based lighting for PBR materials): the generated neutral
 * studio (environment/studio.hdr beside app.js, see renderer/environment/), none (the lights only), or a
 * local .hdr (equirectangular Radiance) or .env (Babylon's prefiltered cube) file.
 */
export type EnvironmentChoice = { kind: 'studio' } | { kind: 'none' } | { kind: 'file'; file: File };

/** The export's transforms (scale, pivot, up axis), previewed on the shown model (sync.ts previewTransforms). */
export type PreviewTransforms = NonNullable<CommandInput<'export.run'>['transforms']>;

/** The loaded file's clips and their playback: the viewer's, carried out by its scene's playback. */
export interface ClipControls {
  /** The loaded file's clips (its animation groups), by name. */
  clips(): string[];
  /** Selects a clip (stopping the others), on its first frame; plays it if `play`. */
  selectClip(index: number, play?: boolean): void;
  play(): void;
  pause(): void;
  seek(frame: number): void;
  setSpeed(speed: number): void;
  setLoop(loop: boolean): void;
}

/** The bones of the model's skeleton: how many, and the names of its rig helpers (hidden unless asked for). */
export interface SkeletonBones {
  total: number;
  helpers: string[];
}

/** A viewer on one canvas (createViewer in babylon.ts): what the screens can ask of it. */
export interface Viewer extends ClipControls {
  /**
   * Lights the scene with an environment. Resolves once it is in use; rejects with the reason when it
   * cannot be read, and the previous environment stays.
   */
  setEnvironment(choice: EnvironmentChoice): Promise<void>;
  /** The environment, blurred, as the background (instead of the plain colour); off by default. */
  showEnvironmentBackground(show: boolean): void;
  /** `keepCamera`: leave the camera where it is (switching between files of the same character). */
  /** `onProgress`: the share of the file read so far (0…1), when its length is known. */
  load(
    source: ModelSource,
    options?: { keepCamera?: boolean; onProgress?: (share: number) => void },
  ): Promise<ModelStats>;
  playback(): Playback | undefined;
  /** Called on every rendered frame while playing and on every change of the playback; returns the unsubscribe. */
  onPlayback(listener: (playback: Playback | undefined) => void): () => void;
  showSkeleton(show: boolean): void;
  /** The skeleton draws its rig helpers too (bones that move no vertex: IK poles, targets); off by default. */
  showHelperBones(show: boolean): void;
  /** The model's bones: how many, and the names of its rig helpers; undefined with no skeleton. */
  skeletonBones(): SkeletonBones | undefined;
  /** Highlights the bones standing for a joint (see shared/joints.ts), or none. */
  highlightJoint(joint: JointName | undefined): void;
  setMode(mode: ViewMode): void;
  /** The texel-density checker's squares across the UV square (texture size ÷ texels per square). */
  setTexelTiling(squares: number): void;
  /** The current view as a PNG, rendered once just before (the drawing buffer is preserved). */
  screenshot(): Promise<Blob>;
  showBounds(show: boolean): void;
  /** Frames the camera on the model again, from the front three-quarter view it opens on. */
  frame(): void;
  /** Frames the camera on the model from a named view (shared/views.ts): front, side, back or top. */
  setView(view: ViewName): void;
  /**
   * Resolves once a frame drawn from a ready scene (the model with its shaders and textures) is on the
   * canvas, or after `timeoutMs` whatever the scene's state (a texture that never arrives).
   */
  shown(timeoutMs?: number): Promise<void>;
  /** The loaded model's textures, once they have all loaded (their sizes are known then). */
  textures(): Promise<TextureInfo[]>;
  /**
   * Shows the export's transforms on the model (scale, pivot, up axis, as main/export/transform.ts applies
   * them) and reframes it; its box afterwards (x, y, z in the viewer's space), undefined with no model shown.
   */
  previewTransforms(transforms: PreviewTransforms): { min: number[]; max: number[] } | undefined;
  /** The bones of the shown model's skeletons. */
  boneCount(): number;
  /** Moves this viewer's camera and the other's together, both ways (the compare view); returns the unlink. */
  linkCamera(other: Viewer): () => void;
  dispose(): void;
}
