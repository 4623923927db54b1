// Simplification with meshoptimizer's MeshoptSimplifier, down to a triangle budget. First as a retopology
// should: open borders locked, UV seams and material boundaries kept (the simplifier keeps a vertex's
// attribute discontinuities, and weighs the texture coordinates' distortion); vertices stay original
// vertices, so the result lies on the input's surface. Locked borders are kept while that costs little
// (a deviation of at most BORDER_ERROR of the model's size): a model made of many open pieces (a CAD
// assembly) cannot reach a tight budget with every rim locked, and forcing it there folds the pieces.
// Past that, borders may move; then small isolated pieces are pruned; last, meshoptimizer's sloppy
// simplifier: the face limit holds whatever the input.
import { MeshoptSimplifier, type SimplifierFlags } from 'meshoptimizer/simplifier';
import type { TriangleMesh } from '../../mesh/mesh.ts';

export type Kept = 'borders-and-seams' | 'seams' | 'seams-pruned' | 'budget-only';

export interface Simplified {
  indices: Uint32Array;
  /** Deviation from the input, relative to its extent (meshoptimizer's error; the largest of its passes). */
  error: number;
  kept: Kept;
}

/** Weight of texture-coordinate distortion against position error (a change of 1 in uv ~ the mesh's extent). */
const UV_WEIGHT = 1;
/** Simplify until the budget whatever the error (relative to the mesh's extent). */
const ANY_ERROR = 1;
/** Largest deviation (relative to the mesh's extent) spent keeping open borders locked: 0.1%. */
export const BORDER_ERROR = 1e-3;
/**
 * A mesh with more than this many times the budget is first brought down to that many by position alone
 * (borders locked, seams kept by the index data): the fine levels of a dense mesh move its texture
 * coordinates by next to nothing, and weighing them there doubles the cost of the pass over the whole input.
 */
const PREPASS_FACTOR = 4;

/** `mesh.indices` simplified to at most `targetTriangles` triangles (as is when it has no more). */
export async function simplifyTo(mesh: TriangleMesh, targetTriangles: number): Promise<Simplified> {
  await MeshoptSimplifier.ready;
  const target = Math.max(0, Math.floor(targetTriangles)) * 3;
  if (mesh.indices.length <= target) return { indices: mesh.indices, error: 0, kept: 'borders-and-seams' };
  let indices = mesh.indices;
  let error = 0;
  const pass = (target: number, limit: number, flags: SimplifierFlags[], withUvs = true) => {
    const [result, passError] =
      mesh.uvs === undefined || !withUvs
        ? MeshoptSimplifier.simplify(indices, mesh.positions, 3, target, limit, flags)
        : MeshoptSimplifier.simplifyWithAttributes(
            indices,
            mesh.positions,
            3,
            mesh.uvs,
            2,
            [UV_WEIGHT, UV_WEIGHT],
            null,
            target,
            limit,
            flags,
          );
    indices = result;
    error = Math.max(error, passError);
    return indices.length <= target;
  };
  // Each pass goes on from where the last stopped: the expensive first pass over the input is not repeated.
  if (mesh.uvs !== undefined && indices.length > PREPASS_FACTOR * target)
    pass(PREPASS_FACTOR * target, BORDER_ERROR, ['LockBorder'], false);
  if (pass(target, BORDER_ERROR, ['LockBorder'])) return { indices, error, kept: 'borders-and-seams' };
  if (pass(target, ANY_ERROR, [])) return { indices, error, kept: 'seams' };
  if (pass(target, ANY_ERROR, ['Prune'])) return { indices, error, kept: 'seams-pruned' };
  // The sloppy simplifier ignores topology; it lands near its target, so it is asked for less until within.
  let ask = target;
  for (let attempt = 0; attempt < 8 && indices.length > target; attempt++) {
    const [result, stageError] = MeshoptSimplifier.simplifySloppy(indices, mesh.positions, 3, null, ask, ANY_ERROR);
    if (result.length <= target) {
      indices = result;
      error = Math.max(error, stageError);
      break;
    }
    ask = Math.floor((ask * 0.9) / 3) * 3;
  }
  if (indices.length > target) indices = indices.slice(0, target); // never reached in practice; the limit holds all the same
  return { indices, error, kept: 'budget-only' };
}
