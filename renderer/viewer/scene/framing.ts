// The model's box and what is drawn from it: the camera framed on it, a floor grid under it, and the
// bounding box lines (hidden unless asked for). The empty viewer shows the grid too: something to look at,
// and its line shader is compiled before the first file comes (the grid and box of each model reuse it).
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Color3 } from '@babylonjs/core/Maths/math.color.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js';
import { HOME_VIEW, VIEWS, type ViewDirection, type ViewName } from '../../../shared/views.ts';
import type { Bounds, ViewerContext } from './context.ts';

export interface Framing {
  /** Measures the model just added (state.bounds) and draws its grid and box; the camera is left alone. */
  fit(model: AssetContainer): void;
  /** Frames the camera on the model's box, from the front three-quarter view (HOME_VIEW). */
  frame(): void;
  /** Frames the camera on the model's box from a named view (front, side, back, top). */
  setView(view: ViewName): void;
  showBounds(show: boolean): void;
  /** The model left: its box goes, and its grid when there was a model (the empty viewer's stays). */
  clear(hadModel: boolean): void;
}

/** The world box of a container's meshes with vertices; a unit box when it has none. */
export function boundsOf(c: AssetContainer): Bounds {
  const min = new Vector3(Infinity, Infinity, Infinity);
  const max = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const mesh of c.meshes) {
    if (mesh.getTotalVertices() === 0) continue;
    mesh.computeWorldMatrix(true);
    mesh.refreshBoundingInfo({});
    const b = mesh.getBoundingInfo().boundingBox;
    min.minimizeInPlace(b.minimumWorld);
    max.maximizeInPlace(b.maximumWorld);
  }
  if (!Number.isFinite(min.x)) return { min: new Vector3(-0.5, 0, -0.5), max: new Vector3(0.5, 1, 0.5) };
  return { min, max };
}

/**
 * The orbit camera's angles for a view (shared/views.ts: glTF's frame). Every loader of the scene (glTF,
 * OBJ, FBX, the USD reader) mirrors X into Babylon's left-handed space and keeps the front on +Z, so the
 * eye at glTF (x, y, z) is at (-x, y, z) here; the camera sits at (cos α sin β, cos β, sin α sin β).
 */
export function cameraAngles({ yaw, elevation }: ViewDirection): { alpha: number; beta: number } {
  // β = 0 (straight down) is the camera's limit: a hair off it keeps the front at the bottom of a top view.
  return { alpha: Math.PI / 2 + yaw, beta: Math.max(Math.PI / 2 - elevation, 0.01) };
}

/**
 * Frames the camera on a box: its target at the centre, far enough to see all of it, with clip planes,
 * zoom limits and panning speed for its size. `view`: the direction to look from (default the front
 * three-quarter view); `true` keeps the direction the user looks from (the export preview reframes a
 * transformed model without turning the view).
 */
export function aimCamera(
  camera: ArcRotateCamera,
  aspect: number,
  bounds: Bounds,
  view: ViewDirection | true = HOME_VIEW,
): void {
  const size = bounds.max.subtract(bounds.min);
  const center = bounds.min.add(size.scale(0.5));
  const radius = Math.max(size.length() / 2, 1e-3);
  const distance = radius / Math.sin(Math.min(camera.fov, camera.fov * aspect) / 2);
  // The limits first: the new radius must not be clamped by the old box's.
  camera.lowerRadiusLimit = radius / 50;
  camera.upperRadiusLimit = distance * 10;
  camera.setTarget(center, false, false, true);
  if (view !== true) {
    const { alpha, beta } = cameraAngles(view);
    camera.alpha = alpha;
    camera.beta = beta;
  }
  camera.radius = distance * 1.05;
  camera.minZ = distance / 500;
  camera.maxZ = distance * 50;
  camera.panningSensibility = 1000 / radius;
  camera.inertialAlphaOffset = camera.inertialBetaOffset = camera.inertialRadiusOffset = 0;
  camera.inertialPanningX = camera.inertialPanningY = 0;
}

/** Draws the empty viewer's grid (on state.bounds, a unit box) at once. */
export function createFraming({ engine, scene, camera, state, wake }: ViewerContext): Framing {
  let grid: LinesMesh | undefined;
  let box: LinesMesh | undefined;
  let boundsShown = false;

  function frameCamera(view: ViewDirection = HOME_VIEW) {
    aimCamera(camera, engine.getAspectRatio(camera) || 1, state.bounds, view);
    wake();
  }

  /** A square grid on the model's floor, with lines at a round spacing. */
  function makeGrid() {
    const { bounds } = state;
    const size = bounds.max.subtract(bounds.min);
    const extent = Math.max(size.x, size.z, size.y * 0.5) * 1.5;
    const step = 10 ** Math.floor(Math.log10(extent / 5));
    const n = Math.ceil(extent / step);
    const cx = Math.round((bounds.min.x + bounds.max.x) / 2 / step) * step;
    const cz = Math.round((bounds.min.z + bounds.max.z) / 2 / step) * step;
    const y = bounds.min.y;
    const lines: Vector3[][] = [];
    for (let i = -n; i <= n; i++) {
      lines.push([new Vector3(cx + i * step, y, cz - n * step), new Vector3(cx + i * step, y, cz + n * step)]);
      lines.push([new Vector3(cx - n * step, y, cz + i * step), new Vector3(cx + n * step, y, cz + i * step)]);
    }
    grid?.dispose();
    grid = CreateLineSystem('grid', { lines }, scene);
    grid.color = new Color3(0.42, 0.45, 0.5);
    grid.alpha = 0.6;
    grid.isPickable = false;
  }

  function makeBox() {
    const { min: a, max: b } = state.bounds;
    const c = (x: number, y: number, z: number) => new Vector3(x ? b.x : a.x, y ? b.y : a.y, z ? b.z : a.z);
    box = CreateLineSystem(
      'bounds',
      {
        lines: [
          [c(0, 0, 0), c(1, 0, 0), c(1, 0, 1), c(0, 0, 1), c(0, 0, 0)],
          [c(0, 1, 0), c(1, 1, 0), c(1, 1, 1), c(0, 1, 1), c(0, 1, 0)],
          [c(0, 0, 0), c(0, 1, 0)],
          [c(1, 0, 0), c(1, 1, 0)],
          [c(1, 0, 1), c(1, 1, 1)],
          [c(0, 0, 1), c(0, 1, 1)],
        ],
      },
      scene,
    );
    box.color = new Color3(1, 0.62, 0);
    box.isPickable = false;
    box.setEnabled(boundsShown);
  }

  makeGrid();
  return {
    fit(model) {
      state.bounds = boundsOf(model);
      makeGrid();
      makeBox();
    },
    frame: () => frameCamera(),
    setView: (view) => frameCamera(VIEWS[view]),
    showBounds(show) {
      boundsShown = show;
      box?.setEnabled(show);
      wake();
    },
    clear(hadModel) {
      if (hadModel) {
        grid?.dispose();
        grid = undefined;
      }
      box?.dispose();
      box = undefined;
    },
  };
}
