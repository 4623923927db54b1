// The skeleton as lines from each bone to its parent, drawn over the model and following the bones every
// frame; the bones standing for one of the 17 joints (shared/joints.ts) can be highlighted.
import type { Skeleton as BabylonSkeleton } from '@babylonjs/core/Bones/skeleton.js';
import { Color4 } from '@babylonjs/core/Maths/math.color.js';
import type { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js';
import { bonesByJoint, type JointName } from '../../../shared/joints.ts';
import type { ViewerContext } from './context.ts';

export interface SkeletonLines {
  /** The skeleton of the model just added (its first), or none. */
  attach(skeleton: BabylonSkeleton | undefined): void;
  /** The model leaves: its lines go. */
  reset(): void;
  show(show: boolean): void;
  highlight(joint: JointName | undefined): void;
}

/** Moves the lines with the bones after every frame drawn (ctx.afterFrame). */
export function createSkeletonLines({ scene, state, wake, afterFrame }: ViewerContext): SkeletonLines {
  let skeleton: BabylonSkeleton | undefined;
  let shown = false;
  let lines: LinesMesh | undefined;
  let highlighted: JointName | undefined;

  /** Lines from each bone to its parent (world positions of the bones' nodes), and the joint of each. */
  function bonePairs(s: BabylonSkeleton): { lines: Vector3[][]; joints: (JointName | undefined)[] } {
    const byJoint = bonesByJoint(s.bones.map((b) => b.name));
    const jointOf = new Map<string, JointName>();
    for (const [joint, names] of Object.entries(byJoint)) for (const n of names) jointOf.set(n, joint as JointName);
    const mesh = state.model?.meshes.find((m) => m.skeleton === s);
    const at = (b: (typeof s.bones)[number]) =>
      b.getTransformNode()?.getAbsolutePosition().clone() ??
      (mesh ? b.getAbsolutePosition(mesh) : b.getAbsolutePosition());
    const pairs: Vector3[][] = [];
    const joints: (JointName | undefined)[] = [];
    for (const bone of s.bones) {
      const parent = bone.getParent();
      if (!parent) continue;
      pairs.push([at(parent), at(bone)]);
      joints.push(jointOf.get(bone.name) ?? jointOf.get(parent.name));
    }
    return { lines: pairs, joints };
  }

  function make() {
    lines?.dispose();
    lines = undefined;
    if (!skeleton || !shown) return;
    const pairs = bonePairs(skeleton);
    if (pairs.lines.length === 0) return;
    const normal = new Color4(0.2, 0.9, 1, 1);
    const hot = new Color4(1, 0.85, 0.1, 1);
    const colors = pairs.joints.map((j) => (j && j === highlighted ? [hot, hot] : [normal, normal]));
    lines = CreateLineSystem('skeleton', { lines: pairs.lines, colors, updatable: true }, scene);
    lines.isPickable = false;
    lines.renderingGroupId = 1; // over the model
  }

  afterFrame(() => {
    if (!skeleton || !lines) return;
    CreateLineSystem('skeleton', { lines: bonePairs(skeleton).lines, instance: lines }, scene);
  });

  return {
    attach(next) {
      skeleton = next;
      make();
    },
    reset() {
      skeleton = undefined;
      lines?.dispose();
      lines = undefined;
    },
    show(show) {
      if (show === shown) return; // (the animation panel says so when it mounts: no frame for nothing)
      shown = show;
      make();
      wake();
    },
    highlight(joint) {
      if (joint === highlighted) return;
      highlighted = joint;
      make();
      wake();
    },
  };
}
