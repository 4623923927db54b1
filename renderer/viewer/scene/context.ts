// What the scene's concern modules (environment, framing, view modes, playback, skeleton, render loop) share:
// the engine, scene and camera on one canvas, the model shown, and wake() for the render loop. Each module
// keeps its own state and reads or writes the shared part here only, so what one module may change in
// another is in this one place.
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import type { Engine } from '@babylonjs/core/Engines/engine.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import type { Scene } from '@babylonjs/core/scene.js';

/** An axis-aligned box in world space (metres for glTF and FBX). */
export interface Bounds {
  min: Vector3;
  max: Vector3;
}

/** The state of the view that more than one module reads. */
export interface ViewState {
  /** The model shown (its meshes, materials, animation groups, skeletons); undefined in the empty viewer. */
  model: AssetContainer | undefined;
  /** The model's box (framing.ts sets it; the grid, the bounds lines, the camera and the stats use it). */
  bounds: Bounds;
  /**
   * A model file is being read (load.ts): what the loader has pending is not in the view yet, so the view
   * is still once the cleared scene is drawn and the render loop does not wait for the scene to be ready.
   */
  reading: boolean;
  /** A clip is playing (playback.ts): the render loop keeps running. */
  playing: boolean;
}

export interface ViewerContext {
  readonly canvas: HTMLCanvasElement;
  readonly engine: Engine;
  readonly scene: Scene;
  readonly camera: ArcRotateCamera;
  readonly state: ViewState;
  /** Runs the render loop until a frame is drawn from a still, ready scene (render-loop.ts). */
  wake(): void;
  /** Called after every frame drawn (the skeleton lines follow the bones; playback reports its frame). */
  afterFrame(listener: () => void): void;
}

/** The state of a viewer without a model: a unit box standing on the origin. */
export function emptyState(): ViewState {
  return { model: undefined, bounds: { min: Vector3.Zero(), max: Vector3.One() }, reading: false, playing: false };
}
