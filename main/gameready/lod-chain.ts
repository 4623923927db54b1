// A model's LOD chain made with meshoptimizer's simplifier: LOD0 brought within a triangle budget, then LOD1..LODn
// each a share of LOD0's triangles. Each level is simplified from the one before (the chain's cost falls with each
// level) with simplifyWithAttributes: normals and UVs weigh in the error, topological borders are locked
// (LockBorder) and UV/normal seams kept (the simplifier welds vertices of one position internally and never pulls
// a seam apart). Vertices are only dropped, never moved, so a skinned mesh keeps its JOINTS/WEIGHTS and its clips
// on every level. Works on a gltf-transform Document in place: LOD0 replaces each mesh's primitives' indices, and
// LOD1..n are new meshes returned per mesh (msft-lod.ts attaches them to their nodes).
import type { Accessor, Document, Mesh, Primitive } from '@gltf-transform/core';
import { weld } from '@gltf-transform/functions';
import { MeshoptSimplifier } from 'meshoptimizer';

const TRIANGLES = 4;
/** Normals weigh half (a unit vector's change), UVs fully (a UV offset of 0.01 costs as much as 1 % of the model's size). */
const NORMAL_WEIGHT = 0.5;
const UV_WEIGHT = 1;
/** No error limit: the triangle target decides; the error reached is reported. */
const UNBOUNDED = 1;
const UNUSED = 0xffffffff;

export interface LodChainOptions {
  /** LOD0's most triangles (over every mesh of the scene). */
  triangleBudget: number;
  /** LOD1..LODn's shares of LOD0's triangles, strictly decreasing (shared/target-profiles.ts `lods`). */
  ratios: readonly number[];
}

export interface LodLevelReport {
  /** 0 for LOD0. */
  level: number;
  triangles: number;
  /** What the level aimed at. */
  target: number;
  /** The simplifier's error, as a share of the model's size (0: untouched), summed along the chain. */
  error: number;
}

export interface LodChain {
  /** The triangles before (LOD0's source). */
  original: number;
  levels: LodLevelReport[];
  /** For each mesh of the scene, its LOD1..LODn meshes (LOD0 is the mesh itself, within budget). */
  meshes: { mesh: Mesh; lods: Mesh[] }[];
  /** Whether LOD0 was simplified to meet the budget. */
  reduced: boolean;
}

/** Makes the chain (see the module comment); the Document's meshes become LOD0. */
export async function buildLodChain(doc: Document, options: LodChainOptions): Promise<LodChain> {
  await MeshoptSimplifier.ready;
  await doc.transform(weld());
  const meshes = sceneMeshes(doc);
  const prims = meshes.flatMap((m) => m.listPrimitives().filter((p) => p.getMode() === TRIANGLES && p.getIndices()));
  const original = prims.reduce((n, p) => n + triangles(p), 0);
  const lod0Target = Math.min(original, options.triangleBudget);
  const reduced = original > options.triangleBudget;
  const errors = new Map<Primitive, number>(prims.map((p) => [p, 0]));
  if (reduced) {
    const share = options.triangleBudget / original;
    for (const p of prims) errors.set(p, simplifyInPlace(doc, p, Math.floor(triangles(p) * share)));
  }
  const lod0 = prims.reduce((n, p) => n + triangles(p), 0);
  const levels: LodLevelReport[] = [
    { level: 0, triangles: lod0, target: lod0Target, error: Math.max(0, ...prims.map((p) => errors.get(p) ?? 0)) },
  ];
  const lod0Counts = new Map(prims.map((p) => [p, triangles(p)]));
  const chains = meshes.map((mesh) => ({ mesh, lods: [] as Mesh[] }));
  let previous = new Map<Mesh, Mesh>(meshes.map((m) => [m, m]));
  options.ratios.forEach((ratio, i) => {
    const next = new Map<Mesh, Mesh>();
    let total = 0;
    let worst = 0;
    for (const chain of chains) {
      const from = previous.get(chain.mesh)!;
      const lod = doc.createMesh(`${chain.mesh.getName() || 'mesh'}_LOD${i + 1}`).setWeights(from.getWeights());
      for (const p of from.listPrimitives()) lod.addPrimitive(p.clone());
      const sources = chain.mesh.listPrimitives();
      lod.listPrimitives().forEach((p, k) => {
        const source = sources[k]!;
        if (!errors.has(source)) return;
        const target = Math.max(1, Math.floor((lod0Counts.get(source) ?? 0) * ratio));
        const before = triangles(p);
        const error = (errors.get(source) ?? 0) + simplifyInPlace(doc, p, Math.min(target, before - 1));
        errors.set(source, error);
        worst = Math.max(worst, error);
        total += triangles(p);
      });
      chain.lods.push(lod);
      next.set(chain.mesh, lod);
    }
    levels.push({
      level: i + 1,
      triangles: total,
      target: Math.max(1, Math.floor(lod0 * ratio)),
      error: worst,
    });
    previous = next;
  });
  return { original, levels, meshes: chains, reduced };
}

/** The triangles of the scene's meshes (each mesh once). */
export function countTriangles(doc: Document): number {
  return sceneMeshes(doc)
    .flatMap((m) => m.listPrimitives())
    .filter((p) => p.getMode() === TRIANGLES)
    .reduce((n, p) => n + triangles(p), 0);
}

function sceneMeshes(doc: Document): Mesh[] {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const out = new Set<Mesh>();
  for (const child of scene?.listChildren() ?? [])
    child.traverse((n) => {
      const mesh = n.getMesh();
      if (mesh) out.add(mesh);
    });
  return [...out];
}

function triangles(p: Primitive): number {
  const indices = p.getIndices();
  return Math.floor((indices ? indices.getCount() : (p.getAttribute('POSITION')?.getCount() ?? 0)) / 3);
}

/**
 * Simplifies one primitive to at most `target` triangles: its indices replaced and its vertices compacted into new
 * accessors (the ones it had may be shared with the level before). Returns the simplifier's error. Where locked
 * borders keep the count above the target, it tries again without the lock, then with the sloppy simplifier, so a
 * budget and strictly decreasing levels always hold.
 */
function simplifyInPlace(doc: Document, prim: Primitive, target: number): number {
  const positions = floatArray(prim.getAttribute('POSITION')!);
  const indices = new Uint32Array(prim.getIndices()!.getArray()!);
  const count = positions.length / 3;
  const { attributes, stride, weights } = weightedAttributes(prim, count);
  const targetIndices = Math.max(3, target * 3);
  let [out, error] = MeshoptSimplifier.simplifyWithAttributes(
    indices,
    positions,
    3,
    attributes,
    stride,
    weights,
    null,
    targetIndices,
    UNBOUNDED,
    ['LockBorder'],
  );
  if (out.length > targetIndices)
    [out, error] = MeshoptSimplifier.simplifyWithAttributes(
      indices,
      positions,
      3,
      attributes,
      stride,
      weights,
      null,
      targetIndices,
      UNBOUNDED,
    );
  if (out.length > targetIndices)
    [out, error] = MeshoptSimplifier.simplifySloppy(indices, positions, 3, null, targetIndices, UNBOUNDED);
  compact(doc, prim, out.slice());
  return error;
}

function weightedAttributes(
  prim: Primitive,
  count: number,
): { attributes: Float32Array; stride: number; weights: number[] } {
  const normal = prim.getAttribute('NORMAL');
  const uv = prim.getAttribute('TEXCOORD_0');
  const parts = [
    ...(normal ? [{ data: floatArray(normal), size: 3, weight: NORMAL_WEIGHT }] : []),
    ...(uv ? [{ data: floatArray(uv), size: 2, weight: UV_WEIGHT }] : []),
  ];
  const stride = parts.reduce((n, p) => n + p.size, 0);
  if (stride === 0) return { attributes: new Float32Array(count), stride: 1, weights: [0] };
  const attributes = new Float32Array(count * stride);
  let offset = 0;
  for (const part of parts) {
    for (let v = 0; v < count; v++)
      for (let k = 0; k < part.size; k++) attributes[v * stride + offset + k] = part.data[v * part.size + k]!;
    offset += part.size;
  }
  return { attributes, stride, weights: parts.flatMap((p) => new Array<number>(p.size).fill(p.weight)) };
}

/** The accessor's values as floats (normalised integers dequantised). */
function floatArray(a: Accessor): Float32Array {
  const array = a.getArray()!;
  if (array instanceof Float32Array) return array;
  const out = new Float32Array(array.length);
  const el: number[] = [];
  const size = a.getElementSize();
  for (let i = 0; i < a.getCount(); i++) {
    a.getElement(i, el);
    for (let k = 0; k < size; k++) out[i * size + k] = el[k]!;
  }
  return out;
}

/** The primitive's indices set to `indices` and every attribute (morph targets too) cut to the vertices they use. */
function compact(doc: Document, prim: Primitive, indices: Uint32Array): void {
  const [remap, unique] = MeshoptSimplifier.compactMesh(indices);
  const copy = (source: Accessor): Accessor => {
    const array = source.getArray()!;
    const size = source.getElementSize();
    const Ctor = array.constructor as new (n: number) => typeof array;
    const out = new Ctor(unique * size);
    for (let v = 0; v < remap.length; v++) {
      const to = remap[v]!;
      if (to === UNUSED) continue;
      for (let k = 0; k < size; k++) out[to * size + k] = array[v * size + k]!;
    }
    return doc
      .createAccessor(source.getName())
      .setType(source.getType())
      .setNormalized(source.getNormalized())
      .setBuffer(source.getBuffer())
      .setArray(out);
  };
  for (const semantic of prim.listSemantics()) prim.setAttribute(semantic, copy(prim.getAttribute(semantic)!));
  for (const t of prim.listTargets())
    for (const semantic of t.listSemantics()) t.setAttribute(semantic, copy(t.getAttribute(semantic)!));
  const index = unique <= 65535 ? Uint16Array.from(indices) : Uint32Array.from(indices);
  prim.setIndices(doc.createAccessor().setType('SCALAR').setBuffer(prim.getIndices()!.getBuffer()).setArray(index));
}
