// Babylon-side helpers for the compare view, the export preview and the FBX check, on a viewer's own scene:
// create-viewer.ts carries them out as methods of the Viewer (linkCamera, previewTransforms, boneCount), so a
// screen reaches them through the viewer its ModelViewer made, never through the page or Babylon's globals.
//  - linkCameras: two viewers' cameras move together (alpha, beta, radius, target);
//  - previewTransforms: the export's transforms applied to the shown model's root nodes;
//  - boneCount: the bones of the shown model's skeletons.
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js';
import type { Scene } from '@babylonjs/core/scene.js';
import { aimCamera } from './scene/framing.ts';
import type { PreviewTransforms } from './types.ts';

const cameraOf = (scene: Scene) => scene.activeCamera as ArcRotateCamera | null;

/**
 * Keeps the two viewers' cameras together: after one renders a frame with its camera moved, the other
 * takes the same alpha, beta, radius and target and renders once. Returns the unlink function.
 */
export function linkCameras(sa: Scene, sb: Scene): () => void {
  let last = '';
  const state = (c: ArcRotateCamera) =>
    [c.alpha, c.beta, c.radius, c.target.x, c.target.y, c.target.z].map((v) => v.toFixed(5)).join(' ');
  const follow = (from: Scene, to: Scene) => () => {
    const src = cameraOf(from);
    const dst = cameraOf(to);
    if (!src || !dst) return;
    const now = state(src);
    if (now === last) return;
    last = now;
    // The target first, keeping alpha/beta/radius (else they are recomputed from the old position).
    dst.setTarget(src.target.clone(), false, true, true);
    dst.alpha = src.alpha;
    dst.beta = src.beta;
    dst.radius = src.radius;
    last = state(dst);
    to.render();
  };
  const oa = sa.onAfterRenderObservable.add(follow(sa, sb));
  const ob = sb.onAfterRenderObservable.add(follow(sb, sa));
  return () => {
    sa.onAfterRenderObservable.remove(oa);
    sb.onAfterRenderObservable.remove(ob);
  };
}

const PREVIEW = 'ExportPreviewRoot';

/**
 * Shows what the export will write: the model's root nodes go under one node with the same scale, pivot
 * and up-axis rotation as main/export/transform.ts applies (in Babylon's left-handed space: the glTF
 * loader mirrors Z). Returns the model's box afterwards (x, y, z in the viewer's space), or undefined
 * when no model is shown.
 */
export function previewTransforms(scene: Scene, t: PreviewTransforms): { min: number[]; max: number[] } | undefined {
  // The model's roots (and its bounding box lines) go under the preview node; a model opened since is added.
  const roots = scene.rootNodes.filter(
    (n) => n !== scene.activeCamera && !scene.lights.includes(n as never) && n.name !== 'grid' && n.name !== PREVIEW,
  );
  let root = scene.getTransformNodeByName(PREVIEW);
  if (!root && roots.length === 0) return undefined;
  root ??= new TransformNode(PREVIEW, scene);
  for (const n of roots) n.parent = root;
  root.position.setAll(0);
  root.rotation.setAll(0);
  root.scaling.setAll(1);
  // glTF's +90° about X (y-to-z) is -90° about X here, and the reverse.
  root.rotation.x = t.upAxis === 'y-to-z' ? -Math.PI / 2 : t.upAxis === 'z-to-y' ? Math.PI / 2 : 0;
  let box = boundsOf(root);
  if (!box) return undefined;
  const size = box.max.subtract(box.min);
  // The height is along the output's up axis: glTF Z (here -Z) after y-to-z, else Y.
  const height = t.upAxis === 'y-to-z' ? size.z : size.y;
  const s = !t.scale
    ? 1
    : 'factor' in t.scale
      ? t.scale.factor
      : 'height' in t.scale
        ? t.scale.height / height
        : t.scale.largest / Math.max(size.x, size.y, size.z);
  if (Number.isFinite(s) && s > 0) root.scaling.setAll(s);
  box = boundsOf(root)!;
  if (t.pivot) {
    const c = box.min.add(box.max).scale(0.5);
    const offset = c.negate();
    if (t.pivot === 'bottom-center') {
      // Bottom of the up axis: min Y, or after y-to-z the glTF min Z, which is the max Z here.
      if (t.upAxis === 'y-to-z') offset.z = -box.max.z;
      else offset.y = -box.min.y;
    }
    root.position.copyFrom(offset);
    box = boundsOf(root)!;
  }
  // Keep the floor grid under the model and the bounding box around it; aim the camera at the new centre.
  const centre = box.min.add(box.max).scale(0.5);
  const grid = scene.getMeshByName('grid');
  grid?.position.set(0, 0, 0);
  // (Its box in the world at that position: read before recomputing, it would be the last preview's, and the
  // grid would drift away from the model from one preview to the next.)
  grid?.computeWorldMatrix(true);
  const gridBox = grid?.getBoundingInfo().boundingBox;
  if (grid && gridBox)
    grid.position.set(
      centre.x - (gridBox.minimumWorld.x + gridBox.maximumWorld.x) / 2,
      box.min.y - gridBox.minimumWorld.y,
      centre.z - (gridBox.minimumWorld.z + gridBox.maximumWorld.z) / 2,
    );
  // Reframe as the viewer frames a model (clip planes and zoom limits for the new size, so a model scaled
  // ×100 is neither clipped nor held at the old distance), keeping the direction the user looks from.
  const camera = cameraOf(scene);
  if (camera) aimCamera(camera, scene.getEngine().getAspectRatio(camera) || 1, box, true);
  scene.render();
  return { min: box.min.asArray(), max: box.max.asArray() };
}

function boundsOf(root: TransformNode): { min: Vector3; max: Vector3 } | undefined {
  root.computeWorldMatrix(true);
  const min = new Vector3(Infinity, Infinity, Infinity);
  const max = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const mesh of root.getChildMeshes(false)) {
    if (mesh.getTotalVertices() === 0 || mesh.name === 'bounds') continue;
    mesh.computeWorldMatrix(true);
    mesh.refreshBoundingInfo({});
    const b = mesh.getBoundingInfo().boundingBox;
    min.minimizeInPlace(b.minimumWorld);
    max.maximizeInPlace(b.maximumWorld);
  }
  return Number.isFinite(min.x) ? { min, max } : undefined;
}

/** Bones of all skeletons of the shown model. */
export function boneCount(scene: Scene): number {
  return scene.skeletons.reduce((n, s) => n + s.bones.length, 0);
}
