// An uploaded character as glTF 2.0 binary (GLB): its mesh (one primitive per material) skinned to ALL the
// bones of its skeleton, at rest in its bind pose, and one looping clip per motion of the animation library or
// prompt, posed by pose.ts on the bones that stand for the body's joints (rig.ts); the other bones follow.
import type { MotionSpec } from '../motion-words.ts';
import { BinaryBody, GL, glbContainer } from '../outputs/glb.ts';
import { GENERATOR } from '../outputs/mesh.ts';
import { inverseRigid, localRest } from '../../formats/rig-math.ts';
import type { CharacterModel, V3 } from './model.ts';
import { sampleClip } from './clip-keys.ts';
import { hangLimbs, type Rig } from './rig.ts';

export interface CharacterClip {
  name: string;
  spec: MotionSpec;
}

export function buildCharacterGlb(given: CharacterModel, rig: Rig, clips: CharacterClip[]): Buffer {
  const model = hangLimbs(given, rig);
  const bones = model.bones;
  const n = bones.length;
  const bin = new BinaryBody();
  const accessors: object[] = [];
  const accessor = (a: object) => accessors.push(a) - 1;
  const vertexCount = model.positions.length / 3;

  // ---- the mesh ----
  const positions = Float32Array.from(model.positions);
  const min: V3 = [Infinity, Infinity, Infinity];
  const max: V3 = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < positions.length; k++) {
    min[k % 3] = Math.min(min[k % 3]!, positions[k]!);
    max[k % 3] = Math.max(max[k % 3]!, positions[k]!);
  }
  const POSITION = accessor({
    bufferView: bin.add(positions, GL.ARRAY_BUFFER),
    componentType: GL.FLOAT,
    count: vertexCount,
    type: 'VEC3',
    min,
    max,
  });
  const NORMAL = accessor({
    bufferView: bin.add(Float32Array.from(model.normals), GL.ARRAY_BUFFER),
    componentType: GL.FLOAT,
    count: vertexCount,
    type: 'VEC3',
  });
  const joints = n <= 256 ? Uint8Array.from(model.joints) : Uint16Array.from(model.joints);
  const JOINTS_0 = accessor({
    bufferView: bin.add(joints, GL.ARRAY_BUFFER),
    componentType: n <= 256 ? GL.UNSIGNED_BYTE : GL.UNSIGNED_SHORT,
    count: vertexCount,
    type: 'VEC4',
  });
  const WEIGHTS_0 = accessor({
    bufferView: bin.add(Float32Array.from(model.weights), GL.ARRAY_BUFFER),
    componentType: GL.FLOAT,
    count: vertexCount,
    type: 'VEC4',
  });
  const COLOR_0 = model.colors
    ? accessor({
        bufferView: bin.add(
          Float32Array.from(model.colors, (c) => Math.min(1, Math.max(0, c))),
          GL.ARRAY_BUFFER,
        ),
        componentType: GL.FLOAT,
        count: vertexCount,
        type: 'VEC3',
      })
    : undefined;
  const wide = vertexCount > 65535;
  const primitives = model.parts.map((part, i) => ({
    attributes: { POSITION, NORMAL, JOINTS_0, WEIGHTS_0, ...(COLOR_0 === undefined ? {} : { COLOR_0 }) },
    indices: accessor({
      bufferView: bin.add(
        wide ? Uint32Array.from(part.indices) : Uint16Array.from(part.indices),
        GL.ELEMENT_ARRAY_BUFFER,
      ),
      componentType: wide ? GL.UNSIGNED_INT : GL.UNSIGNED_SHORT,
      count: part.indices.length,
      type: 'SCALAR',
    }),
    material: i,
  }));
  const materials = model.parts.map((part) => ({
    name: part.name,
    pbrMetallicRoughness: { baseColorFactor: [...part.color.map(clamp01), 1], metallicFactor: 0, roughnessFactor: 0.8 },
  }));

  // ---- the bones: local rest transforms from the world ones; inverse bind matrices ----
  const boneNode = (i: number) => i + 1;
  const nodes: object[] = [
    { name: model.source.replace(/^.*[\\/]/, '').replace(/\.fbx$/i, '') || 'character', mesh: 0, skin: 0 },
  ];
  const local = localRest(bones);
  bones.forEach((b, i) => {
    const children = bones.flatMap((c, k) => (c.parent === i ? [boneNode(k)] : []));
    nodes.push({
      name: b.name,
      translation: local[i]!.t,
      rotation: local[i]!.r,
      ...(children.length ? { children } : {}),
    });
  });
  const ibm = new Float32Array(n * 16);
  for (const [i, b] of bones.entries()) ibm.set(inverseRigid(b.r, b.t), i * 16);
  const IBM = accessor({ bufferView: bin.add(ibm), componentType: GL.FLOAT, count: n, type: 'MAT4' });
  const roots = bones.flatMap((b, i) => (b.parent < 0 ? [boneNode(i)] : []));

  // ---- the clips ----
  const pelvis = rig.root;
  const animations = clips.map((clip) => {
    const { period, frames, times, driven, rotations, hips } = sampleClip(model, rig, clip.spec);
    const input = accessor({
      bufferView: bin.add(times),
      componentType: GL.FLOAT,
      count: frames,
      type: 'SCALAR',
      min: [0],
      max: [period],
    });
    const samplers: object[] = [];
    const channels: object[] = [];
    for (const i of driven) {
      const output = accessor({
        bufferView: bin.add(rotations.get(i)!),
        componentType: GL.FLOAT,
        count: frames,
        type: 'VEC4',
      });
      channels.push({
        sampler: samplers.push({ input, output, interpolation: 'LINEAR' }) - 1,
        target: { node: boneNode(i), path: 'rotation' },
      });
    }
    const output = accessor({ bufferView: bin.add(hips), componentType: GL.FLOAT, count: frames, type: 'VEC3' });
    channels.push({
      sampler: samplers.push({ input, output, interpolation: 'LINEAR' }) - 1,
      target: { node: boneNode(pelvis), path: 'translation' },
    });
    return { name: clip.name, samplers, channels };
  });

  const gltf = {
    asset: { version: '2.0', generator: GENERATOR },
    scene: 0,
    scenes: [{ nodes: [0, ...roots] }],
    nodes,
    meshes: [{ name: nodes[0] && (nodes[0] as { name: string }).name, primitives }],
    materials,
    skins: [
      {
        name: 'skeleton',
        inverseBindMatrices: IBM,
        joints: bones.map((_, i) => boneNode(i)),
        ...(roots.length === 1 ? { skeleton: roots[0] } : {}),
      },
    ],
    ...(animations.length ? { animations } : {}),
    accessors,
    bufferViews: bin.views,
    buffers: [{ byteLength: bin.length }],
  };
  return glbContainer(Buffer.from(JSON.stringify(gltf)), bin.concat());
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
