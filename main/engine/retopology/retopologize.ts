// Retopology of one triangle mesh to a face budget: weld, simplify with meshoptimizer, pair triangles into
// quads, keep only the vertices used. With quads, the simplifier is first asked for more triangles than the
// budget (pairs count one face), then for fewer until the faces fit; the budget is never exceeded.
import { type FaceMesh, faceCount, type TriangleMesh } from '../../mesh/mesh.ts';
import { pairTriangles } from './quads.ts';
import { type Kept, type Simplified, simplifyTo } from './simplify.ts';
import { weld } from './weld.ts';

export interface RetopologyOptions {
  /** Most faces the result has (a quad and a triangle count one each). */
  faces: number;
  /** Quad-dominant (mixed) or triangles only. */
  quads: boolean;
}

/** The result, with the simplifier's deviation (`error`) and what it kept (`kept`). */
export interface Retopologized extends Pick<Simplified, 'error' | 'kept'> {
  mesh: FaceMesh;
  /** Triangles of the (welded) input. */
  inputTriangles: number;
}

/** Triangles asked for per face of the budget on the first quad pass (about two in three pair up). */
const QUAD_HEADROOM = 1.7;
const MAX_PASSES = 6;

export async function retopologize(input: TriangleMesh, options: RetopologyOptions): Promise<Retopologized> {
  if (!(options.faces >= 1)) throw new RangeError(`faces must be at least 1, got ${options.faces}`);
  const mesh = await weld(input);
  const inputTriangles = mesh.indices.length / 3;
  const budget = Math.floor(options.faces);
  if (!options.quads) {
    const simplified = await simplifyTo(mesh, budget);
    return {
      mesh: compact(mesh, new Uint32Array(0), simplified.indices),
      inputTriangles,
      error: simplified.error,
      kept: simplified.kept,
    };
  }

  let target = Math.min(inputTriangles, Math.round(budget * QUAD_HEADROOM));
  const firstPass = await simplifyTo(mesh, target);
  // Later passes start from this result, over only the vertices it uses (cheap: it is near the budget).
  const compacted = compact(mesh, new Uint32Array(0), firstPass.indices);
  const near: TriangleMesh = { ...compacted, indices: compacted.triangles };
  let simplified = { ...firstPass, indices: near.indices };
  let paired = pairTriangles(near.positions, simplified.indices);
  for (let pass = 1; pass < MAX_PASSES && faces(paired) > budget; pass++) {
    // Fewer triangles in proportion to the faces too many.
    target = Math.floor(Math.min(target - 1, (target * budget) / faces(paired)) * 0.99);
    simplified = await simplifyTo({ ...near, indices: simplified.indices }, target);
    paired = pairTriangles(near.positions, simplified.indices);
  }
  if (faces(paired) > budget) {
    // As many triangles as the budget: pairing can only lower the count.
    simplified = await simplifyTo({ ...near, indices: simplified.indices }, budget);
    paired = pairTriangles(near.positions, simplified.indices);
  }
  const result = compact(near, paired.quads, paired.triangles);
  if (faceCount(result) > budget)
    throw new Error(`retopology made ${faceCount(result)} faces for a budget of ${budget}`);
  return {
    mesh: result,
    inputTriangles,
    error: Math.max(firstPass.error, simplified.error),
    kept: worst(firstPass.kept, simplified.kept),
  };
}

/** The less kept of two passes' (the order of Kept's values). */
const worst = (a: Kept, b: Kept): Kept => (KEPT_ORDER.indexOf(a) > KEPT_ORDER.indexOf(b) ? a : b);
const KEPT_ORDER: Kept[] = ['borders-and-seams', 'seams', 'seams-pruned', 'budget-only'];

const faces = (paired: { quads: Uint32Array; triangles: Uint32Array }) =>
  paired.quads.length / 4 + paired.triangles.length / 3;

/** The faces over only the vertices they use, renumbered in order of first use. */
function compact(mesh: TriangleMesh, quads: Uint32Array, triangles: Uint32Array): FaceMesh {
  const remap = new Int32Array(mesh.positions.length / 3).fill(-1);
  let used = 0;
  const renumber = (faces: Uint32Array) =>
    faces.map((v) => {
      if (remap[v]! < 0) remap[v] = used++;
      return remap[v]!;
    });
  const newQuads = renumber(quads);
  const newTriangles = renumber(triangles);
  const positions = new Float32Array(used * 3);
  const uvs = mesh.uvs === undefined ? undefined : new Float32Array(used * 2);
  const materialOf = new Uint16Array(used);
  for (let v = 0; v < remap.length; v++) {
    const to = remap[v]!;
    if (to < 0) continue;
    positions.set(mesh.positions.subarray(v * 3, v * 3 + 3), to * 3);
    uvs?.set(mesh.uvs!.subarray(v * 2, v * 2 + 2), to * 2);
    materialOf[to] = mesh.materialOf[v]!;
  }
  return { positions, uvs, materialOf, materials: mesh.materials, quads: newQuads, triangles: newTriangles };
}
