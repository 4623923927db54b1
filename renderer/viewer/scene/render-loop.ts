// Rendering on demand: the render loop runs only while the camera moves, a pointer is down, a clip plays, or
// the scene is still getting ready; one frame drawn from a still, ready scene is the picture (the drawing
// buffer is preserved), and then the loop stops. The canvas carries data-rendering ("on"/"idle"),
// data-frames and data-camera so that this can be checked.
import type { ViewState } from './context.ts';
import type { Stage } from './stage.ts';

export interface RenderLoop {
  wake(): void;
  afterFrame(listener: () => void): void;
  /** Resolves once a frame drawn from a ready scene is on the canvas, or after `timeoutMs`. */
  shown(timeoutMs: number): Promise<void>;
  /** The current view as a PNG: the scene made ready (a mode just switched may still compile), one frame drawn. */
  screenshot(): Promise<Blob>;
  /** Stops the loop and lets go of the canvas's and the window's events. */
  dispose(): void;
}

export function createRenderLoop({ canvas, engine, scene, camera }: Stage, state: ViewState): RenderLoop {
  let running = false;
  let idleFrames = 0;
  let frames = 0;
  let pointerDown = false;
  let shownWaiters: (() => void)[] = [];
  const listeners: (() => void)[] = [];
  canvas.dataset.rendering = 'idle';

  const interacting = () =>
    pointerDown ||
    camera.inertialAlphaOffset !== 0 ||
    camera.inertialBetaOffset !== 0 ||
    camera.inertialRadiusOffset !== 0 ||
    camera.inertialPanningX !== 0 ||
    camera.inertialPanningY !== 0 ||
    state.playing;
  // While a file is read, frames would only compete with the loading for the CPU: the loop waits for the
  // model to be added (which wakes it) rather than for the loader's pending textures and buffers.
  const moving = () => interacting() || (!state.reading && !scene.isReady());

  const frame = () => {
    const readyBefore = !state.reading && scene.isReady();
    const stillBefore = (state.reading || readyBefore) && !interacting();
    scene.render();
    canvas.dataset.frames = String(++frames);
    canvas.dataset.camera = `${camera.alpha.toFixed(4)} ${camera.beta.toFixed(4)} ${camera.radius.toFixed(4)}`;
    for (const listener of listeners) listener();
    if (readyBefore && shownWaiters.length > 0) {
      const waiters = shownWaiters;
      shownWaiters = [];
      for (const resolve of waiters) resolve();
    }
    // One frame drawn from a still, ready scene is the picture (the drawing buffer is preserved): then stop.
    // More frames would only compete with whatever comes next (a large model costs SwiftShader ~0.1 s a frame).
    if (!stillBefore || moving()) idleFrames = 0;
    else if (++idleFrames >= 1) {
      engine.stopRenderLoop(frame);
      running = false;
      canvas.dataset.rendering = 'idle';
    }
  };
  const wake = () => {
    idleFrames = 0;
    if (running) return;
    running = true;
    canvas.dataset.rendering = 'on';
    engine.runRenderLoop(frame);
  };

  const onDown = () => ((pointerDown = true), wake());
  const onUp = () => ((pointerDown = false), wake());
  canvas.addEventListener('pointerdown', onDown);
  addEventListener('pointerup', onUp);
  canvas.addEventListener('wheel', wake, { passive: true });
  canvas.addEventListener('keydown', wake);
  const resize = new ResizeObserver(() => {
    engine.resize();
    wake();
  });
  resize.observe(canvas);

  return {
    wake,
    afterFrame: (listener) => void listeners.push(listener),
    shown(timeoutMs) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          shownWaiters = shownWaiters.filter((w) => w !== done);
          resolve();
        }
        shownWaiters.push(done);
        wake();
      });
    },
    async screenshot() {
      await scene.whenReadyAsync();
      scene.render();
      return new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The view could not be saved as PNG.'))), 'image/png'),
      );
    },
    dispose() {
      resize.disconnect();
      canvas.removeEventListener('pointerdown', onDown);
      removeEventListener('pointerup', onUp);
      canvas.removeEventListener('wheel', wake);
      canvas.removeEventListener('keydown', wake);
      engine.stopRenderLoop(frame);
    },
  };
}
