// Reading a rigged character's FBX headless: Babylon.js's FBX loader on a NullEngine (no GPU, right-handed
// like FBX and glTF, in metres), then the mesh in its bind pose (the pose the skin was bound in, e.g. a
// T-pose, whatever pose the file's nodes are left in), its skin (four bones per vertex) and every bone of
// its skeleton with its rest position and rotation in that pose; with `takes`, each of its animations (an
// AnimationStack) sampled on those bones. The result is plain data (character.ts): the engine reads uploads
// with it, the export makes a GLB of FBX clips from it.
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import type { Bone } from '@babylonjs/core/Bones/bone.js';
import type { Skeleton } from '@babylonjs/core/Bones/skeleton.js';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import type { AssetContainer } from '@babylonjs/core/assetContainer.js';
import { LoadAssetContainerAsync } from '@babylonjs/core/Loading/sceneLoader.js';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { Scene } from '@babylonjs/core/scene.js';
import '@babylonjs/loaders/FBX/index.js';

import type { CharacterBone, CharacterModel, CharacterPart, Take } from './character.ts';
import { keyTimes, sameHemisphere } from './rig-math.ts';

/** Why an FBX cannot be read at all (the loader's own words). */
export class FbxUnreadable extends Error {}

/** The character of an FBX file's bytes: every mesh merged into one skinned mesh, every bone kept. */
export async function readFbxCharacter(bytes: Uint8Array, source: string): Promise<CharacterModel> {
  return (await readFbx(bytes, source, false)).model;
}

/** The character of an FBX file and its animations (takes), each sampled on its bones. */
export async function readFbxAnimated(
  bytes: Uint8Array,
  source: string,
): Promise<{ model: CharacterModel; takes: Take[] }> {
  return readFbx(bytes, source, true);
}

async function readFbx(
  bytes: Uint8Array,
  source: string,
  withTakes: boolean,
): Promise<{ model: CharacterModel; takes: Take[] }> {
  Logger.LogLevels = Logger.ErrorLogLevel;
  const engine = new NullEngine();
  try {
    const scene = new Scene(engine);
    scene.useRightHandedSystem = true;
    let container: AssetContainer;
    try {
      container = await LoadAssetContainerAsync(`data:;base64,${Buffer.from(bytes).toString('base64')}`, scene, {
        pluginExtension: '.fbx',
        pluginOptions: { fbx: { unitScale: 'meters' } },
      });
    } catch (error) {
      throw new FbxUnreadable(error instanceof Error ? error.message : String(error));
    }
    for (const group of container.animationGroups) group.stop();
    for (const node of [...container.transformNodes, ...container.meshes]) node.computeWorldMatrix(true);
    for (const node of [...container.transformNodes, ...container.meshes]) node.computeWorldMatrix(true);
    const meshes = container.meshes.filter((m) => m.getTotalVertices() > 0 && (m.getIndices()?.length ?? 0) >= 3);
    const { model, bones } = collect(meshes, source);
    return { model, takes: withTakes ? sampleTakes(container, bones) : [] };
  } finally {
    engine.dispose();
  }
}

function collect(meshes: AbstractMesh[], source: string): { model: CharacterModel; bones: Bone[] } {
  // ---- the skeletons and their bones in the bind pose ----
  const skeletons = [...new Set(meshes.flatMap((m) => (m.skeleton ? [m.skeleton] : [])))];
  const bones: CharacterBone[] = [];
  const boneIndex = new Map<Bone, number>();
  for (const skeleton of skeletons) for (const bone of skeleton.bones) boneIndex.set(bone, boneIndex.size);
  const bind = new Map<Bone, Matrix>();
  const used = new Set<Bone>();
  for (const mesh of meshes) if (mesh.skeleton) for (const bone of influencing(mesh, mesh.skeleton)) used.add(bone);
  for (const mesh of meshes) {
    const skeleton = mesh.skeleton;
    if (!skeleton) continue;
    skeleton.prepare(true);
    const skin = skeleton.getTransformMatrices(mesh);
    const meshWorld = mesh.getWorldMatrix();
    const meshInverse = meshWorld.clone().invert();
    for (const [i, bone] of skeleton.bones.entries()) {
      if (!used.has(bone) || bind.has(bone)) continue;
      const node = bone.getTransformNode();
      const world = node ? node.getWorldMatrix() : bone.getFinalMatrix().multiply(meshWorld);
      const k = mapped(bone, i);
      const m = Matrix.FromArray(skin, k * 16).invert();
      // The bone's world matrix in the bind pose: its posed world, taken back by its skin matrix (row vectors).
      bind.set(bone, world.multiply(meshInverse).multiply(m).multiply(meshWorld));
    }
  }
  // Bones that bend no vertex keep their place relative to their parent.
  const worldOf = (bone: Bone): Matrix => {
    const known = bind.get(bone);
    if (known) return known;
    const node = bone.getTransformNode();
    const posed = node ? node.getWorldMatrix() : bone.getFinalMatrix();
    const parent = bone.getParent();
    let out = posed;
    if (parent) {
      const parentPosed = parent.getTransformNode()?.getWorldMatrix() ?? parent.getFinalMatrix();
      out = posed.multiply(parentPosed.clone().invert()).multiply(worldOf(parent));
    }
    bind.set(bone, out);
    return out;
  };
  for (const skeleton of skeletons) {
    for (const bone of skeleton.bones) {
      const scale = new Vector3();
      const rotation = new Quaternion();
      const translation = new Vector3();
      worldOf(bone).decompose(scale, rotation, translation);
      rotation.normalize();
      const parent = bone.getParent();
      bones.push({
        name: bone.name,
        parent: parent ? boneIndex.get(parent)! : -1,
        t: [translation.x, translation.y, translation.z],
        r: [rotation.x, rotation.y, rotation.z, rotation.w],
      });
    }
  }

  // ---- the mesh: positions and normals in the bind pose, four influences per vertex ----
  const positions: number[] = [];
  const normals: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  const parts: CharacterPart[] = [];
  const colored = meshes.some((m) => m.isVerticesDataPresent(VertexBuffer.ColorKind));
  const colors: number[] = [];
  for (const mesh of meshes) {
    const base = positions.length / 3;
    const world = mesh.getWorldMatrix();
    const raw = mesh.getVerticesData(VertexBuffer.PositionKind)!;
    const rawNormals = mesh.getVerticesData(VertexBuffer.NormalKind);
    const normalMatrix = world.clone().invert().transpose();
    const count = raw.length / 3;
    const p = new Vector3();
    for (let v = 0; v < count; v++) {
      Vector3.TransformCoordinatesFromFloatsToRef(raw[v * 3]!, raw[v * 3 + 1]!, raw[v * 3 + 2]!, world, p);
      positions.push(p.x, p.y, p.z);
      if (rawNormals) {
        Vector3.TransformNormalFromFloatsToRef(
          rawNormals[v * 3]!,
          rawNormals[v * 3 + 1]!,
          rawNormals[v * 3 + 2]!,
          normalMatrix,
          p,
        );
        p.normalize();
        normals.push(p.x, p.y, p.z);
      } else normals.push(0, 1, 0);
    }
    if (colored) {
      const c = mesh.getVerticesData(VertexBuffer.ColorKind);
      const stride = c ? c.length / count : 0;
      for (let v = 0; v < count; v++)
        colors.push(...(c ? [c[v * stride]!, c[v * stride + 1]!, c[v * stride + 2]!] : [1, 1, 1]));
    }
    const influences = skinOf(mesh, boneIndex, count);
    // One by one: spreading four entries per vertex as arguments overflows the stack past about 30,000 vertices.
    for (const j of influences.joints) joints.push(j);
    for (const w of influences.weights) weights.push(w);
    const indices = mesh.getIndices()!;
    const flip = world.determinant() < 0;
    const subMeshes = mesh.subMeshes?.length
      ? mesh.subMeshes
      : [{ indexStart: 0, indexCount: indices.length, materialIndex: 0 }];
    for (const sub of subMeshes) {
      const list: number[] = [];
      for (let t = sub.indexStart; t + 2 < sub.indexStart + sub.indexCount; t += 3) {
        const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
        list.push(base + a, base + (flip ? c : b), base + (flip ? b : c));
      }
      if (list.length)
        parts.push({
          name: materialName(mesh, sub.materialIndex),
          color: materialColour(mesh, sub.materialIndex),
          indices: list,
        });
    }
  }
  return {
    model: { source, bones, positions, normals, joints, weights, ...(colored ? { colors } : {}), parts },
    bones: [...boneIndex.keys()],
  };
}

/** At most this many keys a take (a long take is sampled more sparsely). */
const MAX_KEYS = 2000;
const SAMPLE_FPS = 30;

/**
 * Each animation group sampled at 30 keys a second: every animated node set as the group has it at that time (the
 * others at rest), then each bone's world rotation and position (scale dropped, as for the rest pose) taken
 * relative to its parent bone's. So whatever nodes stand between bones in the file, the keys fit the bones read.
 */
function sampleTakes(container: AssetContainer, order: Bone[]): Take[] {
  const nodes = [...container.transformNodes, ...container.meshes];
  const rest = new Map(
    nodes.map((n) => [
      n,
      { p: n.position.clone(), q: n.rotationQuaternion?.clone(), r: n.rotation.clone(), s: n.scaling.clone() },
    ]),
  );
  const index = new Map(order.map((b, i) => [b, i]));
  const takes: Take[] = [];
  for (const group of container.animationGroups) {
    for (const [n, v] of rest) {
      n.position.copyFrom(v.p);
      n.rotation.copyFrom(v.r);
      n.rotationQuaternion = v.q ? v.q.clone() : null;
      n.scaling.copyFrom(v.s);
    }
    const fps = group.targetedAnimations[0]?.animation.framePerSecond || SAMPLE_FPS;
    const seconds = Math.max(0, (group.to - group.from) / fps);
    const times = keyTimes(seconds, SAMPLE_FPS, MAX_KEYS);
    const tracks = order.map((_, bone) => ({ bone, rotations: [] as number[], translations: [] as number[] }));
    for (const t of times) {
      const frame = group.from + t * fps;
      for (const { target, animation } of group.targetedAnimations) {
        const value = animation.evaluate(frame);
        const node = target as Record<string, unknown>;
        if (animation.targetProperty === 'rotationQuaternion' && value instanceof Quaternion)
          node.rotationQuaternion = value.clone();
        else if (value instanceof Vector3 && ['position', 'scaling', 'rotation'].includes(animation.targetProperty))
          (node[animation.targetProperty] as Vector3).copyFrom(value);
      }
      for (const n of nodes) n.computeWorldMatrix(true);
      const world = order.map((bone) => {
        const node = bone.getTransformNode();
        const m = node ? node.getWorldMatrix() : bone.getFinalMatrix();
        const s = new Vector3();
        const q = new Quaternion();
        const p = new Vector3();
        m.decompose(s, q, p);
        q.normalize();
        return { q, p };
      });
      for (const [i, bone] of order.entries()) {
        const parent = bone.getParent();
        const own = world[i]!;
        let q = own.q;
        let p = own.p;
        const pi = parent ? index.get(parent) : undefined;
        if (pi !== undefined) {
          const pw = world[pi]!;
          const inv = Quaternion.Inverse(pw.q);
          q = inv.multiply(own.q);
          p = own.p.subtract(pw.p).applyRotationQuaternion(inv);
        }
        const r = tracks[i]!.rotations;
        r.push(...sameHemisphere([q.x, q.y, q.z, q.w], r.length >= 4 ? r : undefined, r.length - 4));
        tracks[i]!.translations.push(p.x, p.y, p.z);
      }
    }
    takes.push({ name: group.name, times, tracks });
  }
  return takes;
}

/** The index of a bone in the skin matrices (Babylon maps a bone to `_index` when the loader sets one). */
function mapped(bone: Bone, order: number): number {
  const index = (bone as unknown as { _index: number | null })._index;
  return index === null || index === undefined || index < 0 ? order : index;
}

/** The bones of `skeleton` that bend at least one vertex of `mesh`. */
function influencing(mesh: AbstractMesh, skeleton: Skeleton): Set<Bone> {
  const byIndex = new Map(skeleton.bones.map((b, i) => [mapped(b, i), b]));
  const out = new Set<Bone>();
  for (const [indexKind, weightKind] of [
    [VertexBuffer.MatricesIndicesKind, VertexBuffer.MatricesWeightsKind],
    [VertexBuffer.MatricesIndicesExtraKind, VertexBuffer.MatricesWeightsExtraKind],
  ] as const) {
    const idx = mesh.getVerticesData(indexKind);
    const w = mesh.getVerticesData(weightKind);
    if (!idx || !w) continue;
    for (let k = 0; k < w.length; k++) if (w[k]! > 0) out.add(byIndex.get(idx[k]!)!);
  }
  out.delete(undefined as unknown as Bone);
  return out;
}

/** Four influences per vertex (the strongest, summing to 1); a mesh with no skin follows the bone it hangs from, or the first bone. */
function skinOf(
  mesh: AbstractMesh,
  boneIndex: Map<Bone, number>,
  count: number,
): { joints: number[]; weights: number[] } {
  const joints: number[] = [];
  const weights: number[] = [];
  const skeleton = mesh.skeleton;
  const idx = mesh.getVerticesData(VertexBuffer.MatricesIndicesKind);
  const w = mesh.getVerticesData(VertexBuffer.MatricesWeightsKind);
  if (!skeleton || !idx || !w) {
    let holder = 0;
    for (let node = mesh.parent; node; node = node.parent) {
      const bone = [...boneIndex.keys()].find((b) => b.getTransformNode() === node);
      if (bone) {
        holder = boneIndex.get(bone)!;
        break;
      }
    }
    for (let v = 0; v < count; v++) joints.push(holder, 0, 0, 0), weights.push(1, 0, 0, 0);
    return { joints, weights };
  }
  const byIndex = new Map(skeleton.bones.map((b, i) => [mapped(b, i), boneIndex.get(b)!]));
  const idxExtra = mesh.getVerticesData(VertexBuffer.MatricesIndicesExtraKind);
  const wExtra = mesh.getVerticesData(VertexBuffer.MatricesWeightsExtraKind);
  for (let v = 0; v < count; v++) {
    const all: [number, number][] = [];
    for (let k = 0; k < 4; k++) {
      if (w[v * 4 + k]! > 0) all.push([byIndex.get(idx[v * 4 + k]!) ?? 0, w[v * 4 + k]!]);
      if (wExtra && idxExtra && wExtra[v * 4 + k]! > 0)
        all.push([byIndex.get(idxExtra[v * 4 + k]!) ?? 0, wExtra[v * 4 + k]!]);
    }
    all.sort((a, b) => b[1] - a[1]);
    const top = all.slice(0, 4);
    const sum = top.reduce((s, [, x]) => s + x, 0);
    for (let k = 0; k < 4; k++) {
      const [j, x] = top[k] ?? [0, 0];
      joints.push(j);
      weights.push(sum > 0 ? x / sum : k === 0 ? 1 : 0);
    }
  }
  return { joints, weights };
}

interface Coloured {
  name?: string;
  diffuseColor?: { r: number; g: number; b: number };
  albedoColor?: { r: number; g: number; b: number };
  alpha?: number;
  subMaterials?: (Coloured | null)[];
}

function materialOf(mesh: AbstractMesh, index: number): Coloured | undefined {
  const material = mesh.material as Coloured | null;
  if (!material) return undefined;
  return material.subMaterials ? (material.subMaterials[index] ?? undefined) : material;
}

function materialName(mesh: AbstractMesh, index: number): string {
  return materialOf(mesh, index)?.name || mesh.name || 'material';
}

/** The material's base colour (linear RGB), a light grey without one. */
function materialColour(mesh: AbstractMesh, index: number): [number, number, number] {
  const m = materialOf(mesh, index);
  const c = m?.albedoColor ?? m?.diffuseColor;
  return c ? [c.r, c.g, c.b] : [0.7, 0.7, 0.7];
}
