// An uploaded character as glTF 2.0 binary (GLB): its mesh (one primitive per material) skinned to ALL the
// bones of its skeleton, at rest in its bind pose, and one looping clip per motion of the animation library or
// prompt, posed by pose.ts on the bones that stand for the body's joints (rig.ts); the other bones follow.
import type { MotionSpec } from '../motion-words.ts';
import { BinaryBody, dataAccessor, engineGlb, GL, linearChannels } from '../outputs/glb.ts';
import { bounds } from '../outputs/mesh.ts';
import { inverseRigid, localRest } from '../../formats/rig-math.ts';
import type { CharacterModel } from './model.ts';
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
  const vertex = (data: Float32Array | Uint16Array | Uint8Array, type: 'VEC3' | 'VEC4') =>
    accessor(dataAccessor(bin, data, type, GL.ARRAY_BUFFER));
  const positions = Float32Array.from(model.positions);
  const POSITION = accessor(dataAccessor(bin, positions, 'VEC3', GL.ARRAY_BUFFER, bounds(positions)));
  const NORMAL = vertex(Float32Array.from(model.normals), 'VEC3');
  const JOINTS_0 = vertex(n <= 256 ? Uint8Array.from(model.joints) : Uint16Array.from(model.joints), 'VEC4');
  const WEIGHTS_0 = vertex(Float32Array.from(model.weights), 'VEC4');
  const COLOR_0 = model.colors ? vertex(Float32Array.from(model.colors, clamp01), 'VEC3') : undefined;
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
  const IBM = accessor(dataAccessor(bin, ibm, 'MAT4'));
  const roots = bones.flatMap((b, i) => (b.parent < 0 ? [boneNode(i)] : []));

  // ---- the clips ----
  const pelvis = rig.root;
  const animations = clips.map((clip) => {
    const { period, times, driven, rotations, hips } = sampleClip(model, rig, clip.spec);
    const input = accessor(dataAccessor(bin, times, 'SCALAR', undefined, { min: [0], max: [period] }));
    const { samplers, channels, key } = linearChannels();
    for (const i of driven) key(input, accessor(dataAccessor(bin, rotations.get(i)!, 'VEC4')), boneNode(i), 'rotation');
    key(input, accessor(dataAccessor(bin, hips, 'VEC3')), boneNode(pelvis), 'translation');
    return { name: clip.name, samplers, channels };
  });

  const gltf = {
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
  };
  return engineGlb(gltf, accessors, bin);
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
