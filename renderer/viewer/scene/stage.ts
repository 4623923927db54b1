// The engine, scene and orbit camera a viewer draws with, on its canvas.
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Scene } from '@babylonjs/core/scene.js';

export interface Stage {
  readonly canvas: HTMLCanvasElement;
  readonly engine: Engine;
  readonly scene: Scene;
  readonly camera: ArcRotateCamera;
}

/** WebGL with a preserved drawing buffer (a still frame stays on the canvas, and screenshots read it). */
export function createStage(canvas: HTMLCanvasElement): Stage {
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true, antialias: true }, true);
  if (!engine._gl) throw new Error('WebGL is not available in this window.');
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0.16, 0.18, 0.21, 1);
  scene.ambientColor = new Color3(0.3, 0.3, 0.3);
  const camera = new ArcRotateCamera('camera', -Math.PI / 3, Math.PI / 2.6, 4, Vector3.Zero(), scene);
  camera.wheelDeltaPercentage = 0.02;
  camera.panningInertia = 0.8;
  camera.attachControl(true);
  return { canvas, engine, scene, camera };
}
