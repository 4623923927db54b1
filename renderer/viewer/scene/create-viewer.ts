// The viewer on one canvas (the Viewer of ../types.ts), put together from one module per concern: the stage
// (engine, scene, camera), the render loop (on demand), the environment and lights, framing (box, grid,
// camera), view modes, playback, skeleton lines and stats. They share the view's state through one context
// (context.ts); this module only wires them and runs a load from start to finish.
//
// Kept fast on purpose (see the git log of renderer/viewer): compiled shaders persist (configure.ts), the
// PBR meshes leave the hemispheric light as soon as a model is added so that their shader compiles once,
// no frame is drawn while a file is read, and the glTF loader is warmed up while the user picks a file.
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { boneCount, linkCameras, previewTransforms } from '../sync.ts';
import type { Viewer } from '../types.ts';
import { warmUpGltf } from '../warm-up.ts';
import { configureBabylon } from './configure.ts';
import { emptyState, type ViewerContext } from './context.ts';
import { createEnvironment } from './environment.ts';
import { createFraming } from './framing.ts';
import { prepareSource, readContainer } from './load.ts';
import { createPlayback } from './playback.ts';
import { createRenderLoop } from './render-loop.ts';
import { createSkeletonLines } from './skeleton.ts';
import { createStage } from './stage.ts';
import { statsOf, texturesOf } from './stats.ts';
import { createViewModes } from './view-modes.ts';

/** Each viewer's scene, for linkCamera: a viewer is handed the other one, never its canvas. */
const scenes = new WeakMap<Viewer, Scene>();

export function createViewer(canvas: HTMLCanvasElement): Viewer {
  configureBabylon();
  const stage = createStage(canvas);
  const state = emptyState();
  const loop = createRenderLoop(stage, state);
  const ctx: ViewerContext = { ...stage, state, wake: loop.wake, afterFrame: loop.afterFrame };
  const environment = createEnvironment(ctx);
  const framing = createFraming(ctx); // (the empty viewer's grid)
  const modes = createViewModes(ctx);
  const skeleton = createSkeletonLines(ctx);
  const playback = createPlayback(ctx);
  const { scene, engine, wake } = ctx;
  let generation = 0; // the latest load; an earlier one that finishes after it is dropped

  /** Takes the model out of the scene; false when there was none (the empty viewer's grid then stays). */
  function clear(): boolean {
    const hadModel = !!state.model;
    modes.restore();
    playback.reset();
    skeleton.reset();
    state.model?.removeAllFromScene();
    state.model?.dispose();
    state.model = undefined;
    framing.clear(hadModel);
    return hadModel;
  }

  wake();
  // The glTF loader made ready while the user picks a file (../warm-up.ts); `data-loader` says when, for tests.
  void warmUpGltf(scene).then(() => (canvas.dataset.loader = 'ready'));

  const viewer: Viewer = {
    setEnvironment: environment.set,
    showEnvironmentBackground: environment.showBackground,
    async load(source, options) {
      const mine = ++generation;
      const prepared = await prepareSource(source);
      state.reading = true;
      // The old model leaves the view even if the new one fails. With none (the empty viewer) there is
      // nothing to draw until the new one comes: a frame now would only take the CPU from the loading.
      if (clear()) wake();
      let loaded: AssetContainer;
      try {
        loaded = await readContainer(scene, prepared, options?.onProgress);
      } finally {
        if (mine === generation) state.reading = false;
      }
      if (mine !== generation) {
        loaded.dispose();
        throw new Error('superseded');
      }
      state.model = loaded;
      for (const group of loaded.animationGroups) group.stop();
      loaded.addAllToScene();
      environment.balanceLights();
      framing.fit(loaded);
      if (options?.keepCamera) wake();
      else framing.frame();
      playback.attach(loaded.animationGroups);
      skeleton.attach(loaded.skeletons[0]);
      modes.applyToModel();
      return { ...statsOf(loaded, state.bounds), warnings: prepared.warnings };
    },
    setMode: modes.set,
    setTexelTiling: modes.setTexelTiling,
    screenshot: loop.screenshot,
    showBounds: framing.showBounds,
    frame: framing.frame,
    setView: framing.setView,
    shown: (timeoutMs = 10_000) => loop.shown(timeoutMs),
    textures: () => texturesOf(state.model),
    clips: playback.clips,
    selectClip: playback.selectClip,
    play: playback.play,
    pause: playback.pause,
    seek: playback.seek,
    setSpeed: playback.setSpeed,
    setLoop: playback.setLoop,
    playback: playback.current,
    onPlayback: playback.onChange,
    showSkeleton: skeleton.show,
    showHelperBones: skeleton.showHelpers,
    skeletonBones: skeleton.bones,
    highlightJoint: skeleton.highlight,
    previewTransforms: (transforms) => previewTransforms(scene, transforms),
    boneCount: () => boneCount(scene),
    linkCamera(other) {
      const theirs = scenes.get(other);
      if (!theirs) throw new Error('linkCamera: the other viewer is not one createViewer made');
      return linkCameras(scene, theirs);
    },
    dispose() {
      generation++;
      playback.dispose();
      loop.dispose();
      clear();
      scene.dispose();
      engine.dispose();
    },
  };
  scenes.set(viewer, scene);
  return viewer;
}
