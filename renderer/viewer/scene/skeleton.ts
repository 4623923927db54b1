// The skeleton as lines from each bone to its parent, drawn over the model and following the bones every
// frame; the bones standing for one of the 17 joints (shared/joints.ts) can be highlighted. Rig helpers (bones
// that move no vertex: IK poles and targets, end bones; ./deforming-bones.ts) are left out unless asked for.
import type { Skeleton as BabylonSkeleton } from '@babylonjs/core/Bones/skeleton.js';
import { Color4 } from '@babylonjs/core/Maths/math.color.js';
import type { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js';
import { bonesByJoint, type JointName } from '../../../shared/joints.ts';
import type { SkeletonBones } from '../types.ts';
import type { ViewerContext } from './context.ts';
import { deformingBones } from './deforming-bones.ts';

export interface SkeletonLines {
  /** The skeleton of the model just added (its first), or none. */
  attach(skeleton: BabylonSkeleton | undefined): void;
  /** The model leaves: its lines go. */
  reset(): void;
  show(show: boolean): void;
  highlight(joint: JointName | undefined): void;
  /** Draws the rig helpers too (off by default). */
  showHelpers(show: boolean): void;
  /** The skeleton's bones and its helpers; undefined with no skeleton. */
  bones(): SkeletonBones | undefined;
}

/** Moves the lines with the bones after every frame drawn (ctx.afterFrame). */
export function createSkeletonLines({ canvas, scene, state, wake, afterFrame }: ViewerContext): SkeletonLines {
  let skeleton: BabylonSkeleton | undefined;
  let shown = false;
  let helpers = false;
  /** The bones drawn without the helpers (undefined: all of them, when the skin cannot be read). */
  let deforming: Set<BabylonSkeleton['bones'][number]> | undefined;
  /** What bones() answers for the skeleton attached (undefined until asked). */
  let summary: SkeletonBones | undefined;
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
      if (!parent || (!helpers && deforming && !deforming.has(bone))) continue;
      pairs.push([at(parent), at(bone)]);
      joints.push(jointOf.get(bone.name) ?? jointOf.get(parent.name));
    }
    return { lines: pairs, joints };
  }

  function make() {
    lines?.dispose();
    lines = undefined;
    if (!skeleton || !shown) {
      delete canvas.dataset.skeletonLines;
      return;
    }
    const pairs = bonePairs(skeleton);
    canvas.dataset.skeletonLines = String(pairs.lines.length); // (for tests: the bones drawn)
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
      deforming = next ? deformingBones(next, state.model?.meshes ?? []) : undefined;
      summary = undefined;
      make();
    },
    reset() {
      skeleton = undefined;
      deforming = undefined;
      summary = undefined;
      lines?.dispose();
      lines = undefined;
      delete canvas.dataset.skeletonLines;
    },
    show(show) {
      if (show === shown) return; // (the animation panel says so when it mounts: no frame for nothing)
      shown = show;
      make();
      wake();
    },
    showHelpers(show) {
      if (show === helpers) return;
      helpers = show;
      make();
      wake();
    },
    bones() {
      if (!skeleton) return undefined;
      const kept = deforming;
      // Asked at every frame the animation panel shows: worked out once per skeleton.
      summary ??= {
        total: skeleton.bones.length,
        helpers: kept ? skeleton.bones.filter((b) => !kept.has(b)).map((b) => b.name) : [],
      };
      return summary;
    },
    highlight(joint) {
      if (joint === highlighted) return;
      highlighted = joint;
      make();
      wake();
    },
  };
}
