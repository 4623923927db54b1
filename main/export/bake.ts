// Bakes a similarity transform x → s·R·x + t (uniform scale s, R a quarter turn about X or none) into a
// glTF document, so that no node is added and no node gets a scale: every vertex position, normal and
// tangent (and morph target) is mapped, skins' inverse bind matrices and every node's local transform and
// animation keys are conjugated by B = s·R, and the translation t goes on the scene's roots (then on down
// through plain grouping roots, so that a rig's root node stays the identity, as engines' prefabs want).
//
// Why it is exact: with L' = B·L·B⁻¹ below the roots and L' = T(t)·B·L·B⁻¹ at a root, every world matrix
// becomes A·W·B⁻¹ (A = T(t)·B); a vertex B·v of a mesh then lands on A·W·v, and a skinned vertex on
// A·Wj·IBMj·v with IBM' = B·IBM·B⁻¹. B·L·B⁻¹ stays a translation, rotation and scale because B is a
// uniform scale times a quarter turn: the translation is B·l, the rotation R·q·R⁻¹, the scale permuted.
import type { Accessor, AnimationChannel, Document, Node, vec3, vec4 } from '@gltf-transform/core';

export interface Similarity {
  /** Uniform scale factor. */
  scale: number;
  /** The quarter turn as a quaternion (x, y, z, w), or the identity. */
  rotation: vec4;
  /** Maps a vector by the rotation, and back (exact for quarter turns). */
  rotate: (v: vec3) => vec3;
  unrotate: (v: vec3) => vec3;
  translation: vec3;
}

/** Applies the similarity to the whole document (all scenes). */
export function bakeSimilarity(doc: Document, given: Similarity): void {
  const sim = { ...given, permuteScale: scalePermutation(given.rotate) };
  const root = doc.getRoot();
  const mapped = new Set<Accessor>();
  const once = (a: Accessor | null, map: (a: Accessor) => void) => {
    if (!a || mapped.has(a)) return;
    mapped.add(a);
    toFloat(a);
    map(a);
  };
  const point = (a: Accessor) => mapVectors(a, 3, (v) => scaled(sim.rotate(v as vec3), sim.scale));
  const direction = (a: Accessor) => mapVectors(a, 3, (v) => sim.rotate(v as vec3));
  const tangent = (a: Accessor) => mapVectors(a, 4, (v) => [...sim.rotate([v[0]!, v[1]!, v[2]!]), v[3]!]);
  for (const mesh of root.listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      once(prim.getAttribute('POSITION'), point);
      once(prim.getAttribute('NORMAL'), direction);
      once(prim.getAttribute('TANGENT'), tangent);
      for (const target of prim.listTargets()) {
        once(target.getAttribute('POSITION'), point);
        once(target.getAttribute('NORMAL'), direction);
        once(target.getAttribute('TANGENT'), direction);
      }
    }
  }
  for (const skin of root.listSkins())
    once(skin.getInverseBindMatrices(), (a) => mapVectors(a, 16, (m) => conjugate(m, sim)));
  moveSkinnedBindSpace(doc, sim.translation);

  // A skinned mesh node's transform is ignored (it follows its joints): it only keeps its meaning, conjugated.
  const roots = new Set(
    root
      .listScenes()
      .flatMap((s) => s.listChildren())
      .filter((n) => !n.getSkin()),
  );
  for (const node of root.listNodes()) {
    node.setTranslation(
      add(scaled(sim.rotate(node.getTranslation()), sim.scale), roots.has(node) ? sim.translation : [0, 0, 0]),
    );
    node.setRotation(conjugateRotation(node.getRotation(), sim));
    node.setScale(sim.permuteScale(node.getScale()));
  }
  bakeAnimations(doc, sim, roots);
  for (const scene of root.listScenes()) for (const node of scene.listChildren()) pushDown(doc, node);
}

/**
 * The translation goes into skinned meshes' vertices too, and out of their inverse bind matrices
 * (IBM' = B·IBM·B⁻¹·T(-t)), so that each joint's bind pose (IBM'⁻¹, where Blender's importer and others take
 * the rest pose from) is where the joint is at rest: without it the rest pose stays at the old pivot.
 * Skinned positions: v' = B·v + t; then Wj'·IBM'·v' = A·Wj·IBM·v as before.
 */
function moveSkinnedBindSpace(doc: Document, t: vec3): void {
  if (t[0] === 0 && t[1] === 0 && t[2] === 0) return;
  const skinned = doc
    .getRoot()
    .listNodes()
    .filter((n) => n.getSkin() && n.getMesh());
  const positions = new Set(
    skinned.flatMap((n) =>
      n
        .getMesh()!
        .listPrimitives()
        .flatMap((p) => p.getAttribute('POSITION') ?? []),
    ),
  );
  for (const a of positions) mapVectors(a, 3, (v) => add(v as vec3, t));
  for (const skin of new Set(skinned.map((n) => n.getSkin()!))) {
    let ibm = skin.getInverseBindMatrices();
    if (!ibm) {
      const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
      ibm = doc
        .createAccessor()
        .setType('MAT4')
        .setBuffer(buffer)
        .setArray(new Float32Array(skin.listJoints().flatMap(() => identity)));
      skin.setInverseBindMatrices(ibm);
    }
    // M·T(-t): the translation column gains -(linear part)·t.
    mapVectors(ibm, 16, (m) => {
      const out = [...m];
      for (let r = 0; r < 3; r++) out[12 + r] = m[12 + r]! - (m[r]! * t[0] + m[4 + r]! * t[1] + m[8 + r]! * t[2]);
      return out;
    });
  }
}

type Baking = Similarity & { permuteScale: (s: vec3) => vec3 };

/** The scale vector of R·S·R⁻¹ for a node scale S: R maps each axis onto another (with a sign), the scale follows. */
function scalePermutation(rotate: (v: vec3) => vec3): (s: vec3) => vec3 {
  const to = [0, 1, 2].map((i) => {
    const e = rotate([i === 0 ? 1 : 0, i === 1 ? 1 : 0, i === 2 ? 1 : 0]);
    return e.findIndex((c) => Math.abs(c) > 0.5);
  });
  return (s) => {
    const out: vec3 = [1, 1, 1];
    for (let i = 0; i < 3; i++) out[to[i]!] = s[i]!;
    return out;
  };
}

/** Animation keys follow their nodes' transforms; an output shared by a root and a non-root is split. */
function bakeAnimations(doc: Document, sim: Baking, roots: Set<Node>): void {
  const done = new Map<Accessor, string>();
  for (const animation of doc.getRoot().listAnimations()) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode();
      const sampler = channel.getSampler();
      const output = sampler?.getOutput();
      const path = channel.getTargetPath();
      if (!node || !sampler || !output || (path !== 'translation' && path !== 'rotation' && path !== 'scale')) continue;
      const role = `${path}:${path === 'translation' && roots.has(node) ? 'root' : 'child'}`;
      let target = output;
      const before = done.get(output);
      if (before === role) continue;
      if (before !== undefined) {
        target = output.clone();
        sampler.setOutput(target);
      }
      done.set(target, role);
      toFloat(target);
      const cubic = sampler.getInterpolation() === 'CUBICSPLINE';
      const offset = role === 'translation:root' ? sim.translation : ([0, 0, 0] as vec3);
      // Cubic splines keep (in-tangent, value, out-tangent) per key: tangents are directions (no offset).
      const isValue = (i: number) => !cubic || i % 3 === 1;
      if (path === 'translation')
        mapVectors(target, 3, (v, i) => add(scaled(sim.rotate(v as vec3), sim.scale), isValue(i) ? offset : [0, 0, 0]));
      else if (path === 'rotation') mapVectors(target, 4, (q) => conjugateRotation(q as vec4, sim));
      else mapVectors(target, 3, (v) => sim.permuteScale(v as vec3));
    }
  }
}

/**
 * A root that only groups (no mesh, camera, skin, not a joint, not animated) and is now a plain translation
 * hands that translation to its children, so the root stays the identity. Skinned mesh children are left:
 * glTF ignores their transform (they follow their joints).
 */
function pushDown(doc: Document, node: Node): void {
  const [tx, ty, tz] = node.getTranslation();
  if (tx === 0 && ty === 0 && tz === 0) return;
  if (!isIdentityRotationScale(node) || node.getMesh() || node.getCamera() || node.getSkin()) return;
  if (node.listParents().some((p) => p.propertyType === 'Skin' || p.propertyType === 'AnimationChannel')) return;
  const children = node.listChildren().filter((c) => !c.getSkin());
  if (children.length !== node.listChildren().length || children.length === 0) return;
  const t: vec3 = [tx, ty, tz];
  for (const child of children) {
    child.setTranslation(add(child.getTranslation(), t));
    for (const channel of channelsOf(doc, child, 'translation')) {
      const sampler = channel.getSampler()!;
      const output = sampler.getOutput()!;
      const own =
        output.listParents().filter((p) => p.propertyType === 'AnimationSampler').length > 1 ? output.clone() : output;
      sampler.setOutput(own);
      const cubic = sampler.getInterpolation() === 'CUBICSPLINE';
      mapVectors(own, 3, (v, i) => (!cubic || i % 3 === 1 ? add(v as vec3, t) : (v as vec3)));
    }
  }
  node.setTranslation([0, 0, 0]);
}

function channelsOf(doc: Document, node: Node, path: string): AnimationChannel[] {
  return doc
    .getRoot()
    .listAnimations()
    .flatMap((a) => a.listChannels())
    .filter((c) => c.getTargetNode() === node && c.getTargetPath() === path && c.getSampler()?.getOutput());
}

function isIdentityRotationScale(node: Node): boolean {
  const [x, y, z, w] = node.getRotation();
  const [a, b, c] = node.getScale();
  return x === 0 && y === 0 && z === 0 && Math.abs(w) === 1 && a === 1 && b === 1 && c === 1;
}

/** Quantized or normalized accessors become plain floats before their values change. */
function toFloat(a: Accessor): void {
  const array = a.getArray();
  if (array instanceof Float32Array && !a.getNormalized()) return;
  const size = a.getElementSize();
  const out = new Float32Array(a.getCount() * size);
  const element: number[] = new Array(size).fill(0);
  for (let i = 0; i < a.getCount(); i++) out.set(a.getElement(i, element), i * size);
  a.setNormalized(false).setArray(out);
}

function mapVectors(a: Accessor, size: number, map: (v: number[], index: number) => number[]): void {
  const array = a.getArray() as Float32Array<ArrayBuffer>;
  const count = array.length / size;
  for (let i = 0; i < count; i++) array.set(map(Array.from(array.subarray(i * size, i * size + size)), i), i * size);
  a.setArray(array);
}

const scaled = (v: vec3, s: number): vec3 => [v[0] * s, v[1] * s, v[2] * s];
const add = (a: vec3, b: vec3): vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/** r·q·r⁻¹ turns the vector part of q by r and keeps its w: done with the exact quarter turn. */
function conjugateRotation(q: vec4, sim: Similarity): vec4 {
  const [x, y, z] = sim.rotate([q[0], q[1], q[2]]);
  return [x, y, z, q[3]];
}

/** B·M·B⁻¹ for a column-major 4x4: the linear part R·M·R⁻¹, the translation column s·R·m. */
function conjugate(m: number[], sim: Similarity): number[] {
  const column = (c: number): vec3 => [m[c * 4]!, m[c * 4 + 1]!, m[c * 4 + 2]!];
  // Columns of R·M·R⁻¹: R applied to the columns of M, then the columns permuted as R⁻¹ maps the axes.
  const rm = [0, 1, 2].map((c) => sim.rotate(column(c)));
  const axes: vec3[] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 3; c++) {
    // (R·M·R⁻¹)·e_c = R·M·(R⁻¹·e_c), with R⁻¹·e_c a signed axis.
    const back = sim.unrotate(axes[c]!);
    const col: vec3 = [0, 0, 0];
    for (let k = 0; k < 3; k++) for (let r = 0; r < 3; r++) col[r] = col[r]! + rm[k]![r]! * back[k]!;
    out[c * 4] = col[0];
    out[c * 4 + 1] = col[1];
    out[c * 4 + 2] = col[2];
  }
  const t = scaled(sim.rotate(column(3)), sim.scale);
  out[12] = t[0];
  out[13] = t[1];
  out[14] = t[2];
  out[15] = m[15]!;
  return out;
}
