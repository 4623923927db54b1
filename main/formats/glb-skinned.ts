// A skinned, animated GLB read as a character with its clips (character.ts's plain data), so that an engine
// that imports FBX only (Unity without a glTF package) gets the clips of an animation whose files are GLB as
// one FBX: the mesh of the skinned node (its primitives merged, a part per primitive), every joint of its skin
// (rest from the inverse bind matrices), and each animation's rotation and translation channels on the joints,
// sampled at 30 keys a second. Undefined when the GLB has no skinned mesh.
import { MathUtils, type mat4, NodeIO, type AnimationSampler, type Node } from '@gltf-transform/core';
import type { Quat, SkinnedCharacter, Take, V3 } from './character.ts';
import { invertRigid, keyTimes, normalizeQ, sameHemisphere } from './rig-math.ts';

const SAMPLE_FPS = 30;
const MAX_KEYS = 2000;

export async function readSkinnedGlb(bytes: Uint8Array, name: string): Promise<SkinnedCharacter | undefined> {
  const doc = await new NodeIO().readBinary(bytes);
  const root = doc.getRoot();
  const holder = root.listNodes().find((n) => n.getSkin() && n.getMesh());
  const skin = holder?.getSkin();
  const mesh = holder?.getMesh();
  if (!holder || !skin || !mesh) return undefined;
  const joints = skin.listJoints();
  const index = new Map<Node, number>(joints.map((j, i) => [j, i]));
  const ibm = skin.getInverseBindMatrices()?.getArray();
  const bones = joints.map((joint, i) => {
    let parent = -1;
    for (let p = joint.getParentNode(); p; p = p.getParentNode()) {
      const k = index.get(p);
      if (k !== undefined) {
        parent = k;
        break;
      }
    }
    const world = ibm ? invertRigid(Array.from(ibm.slice(i * 16, i * 16 + 16))) : joint.getWorldMatrix();
    return { name: joint.getName() || `bone${i}`, parent, ...decompose(world as number[]) };
  });

  // ---- the mesh: every primitive's vertices one after the other ----
  const positions: number[] = [];
  const normals: number[] = [];
  const skinJoints: number[] = [];
  const weights: number[] = [];
  const parts: SkinnedCharacter['parts'] = [];
  for (const prim of mesh.listPrimitives()) {
    const position = prim.getAttribute('POSITION');
    if (!position) continue;
    const base = positions.length / 3;
    const count = position.getCount();
    const normal = prim.getAttribute('NORMAL');
    const j = prim.getAttribute('JOINTS_0');
    const w = prim.getAttribute('WEIGHTS_0');
    const v3: number[] = [0, 0, 0];
    const v4: number[] = [0, 0, 0, 0];
    for (let k = 0; k < count; k++) {
      positions.push(...(position.getElement(k, v3) as number[]));
      normals.push(...(normal ? (normal.getElement(k, v3) as number[]) : [0, 1, 0]));
      skinJoints.push(...(j ? (j.getElement(k, v4) as number[]) : [0, 0, 0, 0]));
      weights.push(...(w ? (w.getElement(k, v4) as number[]) : [1, 0, 0, 0]));
    }
    const indices = prim.getIndices()?.getArray();
    const list = indices ? Array.from(indices, (x) => x + base) : Array.from({ length: count }, (_, k) => k + base);
    const color = prim.getMaterial()?.getBaseColorFactor() ?? [0.7, 0.7, 0.7, 1];
    parts.push({
      name: prim.getMaterial()?.getName() || `part${parts.length}`,
      color: [color[0]!, color[1]!, color[2]!],
      indices: list,
    });
  }

  // ---- the clips ----
  const takes: Take[] = root.listAnimations().map((animation, a) => {
    const channels = animation
      .listChannels()
      .filter((c) => c.getTargetNode() && index.has(c.getTargetNode()!) && c.getSampler()?.getInput());
    let end = 0;
    for (const c of channels) {
      const input = c.getSampler()!.getInput()!.getArray()!;
      end = Math.max(end, input[input.length - 1] ?? 0);
    }
    const times = keyTimes(end, SAMPLE_FPS, MAX_KEYS);
    const tracks = new Map<number, { bone: number; rotations?: number[]; translations?: number[] }>();
    for (const c of channels) {
      const path = c.getTargetPath();
      if (path !== 'rotation' && path !== 'translation') continue;
      const bone = index.get(c.getTargetNode()!)!;
      const track = tracks.get(bone) ?? { bone };
      tracks.set(bone, track);
      const values = times.flatMap((t) => sample(c.getSampler()!, t, path === 'rotation' ? 4 : 3));
      if (path === 'rotation') track.rotations = values;
      else track.translations = values;
    }
    return { name: animation.getName() || `clip ${a + 1}`, times, tracks: [...tracks.values()] };
  });
  return {
    name: holder.getName() || name,
    positions,
    normals,
    joints: skinJoints,
    weights,
    parts,
    bones,
    takes,
  };
}

/** A sampler's value at time `t` (linear between keys; a step sampler holds; cubic takes its keys' values). */
function sample(sampler: AnimationSampler, t: number, size: number): number[] {
  const input = sampler.getInput()!.getArray()!;
  const output = sampler.getOutput()!.getArray()!;
  const cubic = sampler.getInterpolation() === 'CUBICSPLINE';
  const at = (k: number) => {
    const start = cubic ? (k * 3 + 1) * size : k * size;
    return Array.from(output.slice(start, start + size));
  };
  const n = input.length;
  if (n === 0) return size === 4 ? [0, 0, 0, 1] : [0, 0, 0];
  if (t <= input[0]!) return at(0);
  if (t >= input[n - 1]!) return at(n - 1);
  let k = 0;
  while (k + 1 < n && input[k + 1]! < t) k++;
  const a = at(k);
  if (sampler.getInterpolation() === 'STEP') return a;
  const b = size === 4 ? sameHemisphere(at(k + 1), a) : at(k + 1);
  const f = (t - input[k]!) / (input[k + 1]! - input[k]! || 1);
  const v = a.map((x, i) => x + (b[i]! - x) * f);
  if (size === 4) {
    const len = Math.hypot(...v) || 1;
    return v.map((x) => x / len);
  }
  return v;
}

/** The translation and rotation of a column-major rigid (or uniformly scaled) matrix. */
function decompose(m: number[]): { t: V3; r: Quat } {
  const t: V3 = [0, 0, 0];
  const r: Quat = [0, 0, 0, 1];
  MathUtils.decompose(m as unknown as mat4, t, r, [1, 1, 1]);
  return { t, r: normalizeQ(r) };
}
