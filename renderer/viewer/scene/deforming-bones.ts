// Which bones of a skeleton deform its meshes: a bone that moves at least one vertex (a skin weight above
// zero in any mesh bound to the skeleton), or that has such a bone below it (a root or a hips bone that holds
// the body). The others are rig helpers (IK poles and targets, end bones, control bones): they move no vertex,
// and the skeleton overlay leaves them out unless the user asks for them.
import type { Bone } from '@babylonjs/core/Bones/bone.js';
import type { Skeleton } from '@babylonjs/core/Bones/skeleton.js';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';

const PAIRS = [
  [VertexBuffer.MatricesIndicesKind, VertexBuffer.MatricesWeightsKind],
  [VertexBuffer.MatricesIndicesExtraKind, VertexBuffer.MatricesWeightsExtraKind],
] as const;

/**
 * The bones of `skeleton` kept in the overlay: those that deform (see above) and their ancestors. Undefined
 * when no mesh bound to it has skin weights to read (then every bone is shown).
 */
export function deformingBones(skeleton: Skeleton, meshes: readonly AbstractMesh[]): Set<Bone> | undefined {
  const used = new Set<number>();
  let read = false;
  for (const mesh of meshes) {
    if (mesh.skeleton !== skeleton) continue;
    for (const [indicesKind, weightsKind] of PAIRS) {
      const indices = mesh.getVerticesData(indicesKind);
      const weights = mesh.getVerticesData(weightsKind);
      if (!indices || !weights) continue;
      read = true;
      const n = Math.min(indices.length, weights.length);
      for (let i = 0; i < n; i++) if (weights[i]! > 0) used.add(indices[i]!);
    }
  }
  if (!read) return undefined;
  const kept = new Set<Bone>();
  skeleton.bones.forEach((bone, position) => {
    // The bone's place in the skin matrices: its own index when the loader set one (-1: in no skin).
    const own = (bone as unknown as { _index: number | null | undefined })._index;
    const index = own === null || own === undefined ? position : own;
    if (index === -1 || !used.has(index)) return;
    for (let b: Bone | null = bone; b && !kept.has(b); b = b.getParent()) kept.add(b);
  });
  return kept;
}
