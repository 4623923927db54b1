// World-space bounding box of a glTF scene, as an engine shows it at rest.
import type { mat4, Node, Scene, Skin } from '@gltf-transform/core';

export type Vec3 = [number, number, number];

/** An axis-aligned box in the file's units (glTF: metres). */
export interface Bounds {
  min: Vec3;
  max: Vec3;
  size: Vec3;
}

/**
 * The box around every vertex of every mesh in the scene, with each node's world transform. A skinned
 * mesh is posed by its joints (joint world matrix x inverse bind matrix, weighted), since glTF ignores
 * the skinned node's own transform. Morph targets are not applied. Undefined when there is no geometry.
 */
export function sceneBounds(scene: Scene): Bounds | undefined {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const add = (p: Vec3) => {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, p[k]!);
      max[k] = Math.max(max[k]!, p[k]!);
    }
  };
  for (const root of scene.listChildren()) root.traverse((node) => eachVertex(node, add));
  return Number.isFinite(min[0]) ? box(min, max) : undefined;
}

export function box(min: Vec3, max: Vec3): Bounds {
  return { min, max, size: [max[0] - min[0], max[1] - min[1], max[2] - min[2]] };
}

function eachVertex(node: Node, add: (p: Vec3) => void): void {
  const mesh = node.getMesh();
  if (!mesh) return;
  const skin = node.getSkin();
  const joints = skin ? jointMatrices(skin) : undefined;
  const world = node.getWorldMatrix();
  const local: Vec3 = [0, 0, 0];
  const out: Vec3 = [0, 0, 0];
  for (const prim of mesh.listPrimitives()) {
    const position = prim.getAttribute('POSITION');
    if (!position) continue;
    const sets = joints ? influenceSets(prim.listSemantics(), (s) => prim.getAttribute(s)) : [];
    for (let i = 0; i < position.getCount(); i++) {
      position.getElement(i, local);
      if (joints) skinPoint(joints, sets, i, local, out);
      else transformPoint(world, local, out);
      add(out);
    }
  }
}

type Attribute = { getElement(index: number, target: number[]): number[] };

/** The JOINTS_n / WEIGHTS_n pairs of a primitive. */
function influenceSets(semantics: string[], get: (s: string) => Attribute | null): [Attribute, Attribute][] {
  const sets: [Attribute, Attribute][] = [];
  for (const s of semantics) {
    const n = /^JOINTS_(\d+)$/.exec(s)?.[1];
    const joints = n === undefined ? null : get(s);
    const weights = n === undefined ? null : get(`WEIGHTS_${n}`);
    if (joints && weights) sets.push([joints, weights]);
  }
  return sets;
}

function jointMatrices(skin: Skin): mat4[] {
  const ibm = skin.getInverseBindMatrices();
  const identity: mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return skin
    .listJoints()
    .map((joint, k) => multiply(joint.getWorldMatrix(), ibm ? (ibm.getElement(k, [...identity]) as mat4) : identity));
}

function skinPoint(joints: mat4[], sets: [Attribute, Attribute][], i: number, local: Vec3, out: Vec3): void {
  const j = [0, 0, 0, 0];
  const w = [0, 0, 0, 0];
  const p: Vec3 = [0, 0, 0];
  out.fill(0);
  for (const [jointsAttr, weightsAttr] of sets) {
    jointsAttr.getElement(i, j);
    weightsAttr.getElement(i, w);
    for (let c = 0; c < 4; c++) {
      if (w[c] === 0) continue;
      transformPoint(joints[j[c]!]!, local, p);
      for (let k = 0; k < 3; k++) out[k] = out[k]! + w[c]! * p[k]!;
    }
  }
}

/** Column-major 4x4 (glTF order) applied to a point. */
function transformPoint(m: mat4, v: Vec3, out: Vec3): void {
  const [x, y, z] = v;
  out[0] = m[0] * x + m[4] * y + m[8] * z + m[12];
  out[1] = m[1] * x + m[5] * y + m[9] * z + m[13];
  out[2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

function multiply(a: mat4, b: mat4): mat4 {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return out as unknown as mat4;
}
