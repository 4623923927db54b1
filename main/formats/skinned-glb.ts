// A skinned character with its takes as glTF 2.0 binary (GLB), from plain data (character.ts): the mesh (one
// primitive per part, vertex colours when it has them) skinned to every bone at rest in its bind pose, and each
// take a looping animation of its tracks' rotations and positions. The engine's animated character GLB and the
// export's GLB of FBX clips (Godot, a plain folder) are both written here; the FBX of the same data is
// fbx-skinned.ts's.
import { BinaryBody, bounds, dataAccessor, GL, linearChannels, writeGlb } from './glb.ts';
import type { SkinnedCharacter } from './character.ts';
import { inverseRigid, localRest } from './rig-math.ts';

/** The GLB of `character`, its asset naming `generator` as the program that wrote it. */
export function writeSkinnedGlb(character: SkinnedCharacter, generator: string): Buffer {
  const { bones } = character;
  const n = bones.length;
  const bin = new BinaryBody();
  const accessors: object[] = [];
  const accessor = (a: object) => accessors.push(a) - 1;
  const vertexCount = character.positions.length / 3;

  // ---- the mesh ----
  const vertex = (data: Float32Array | Uint16Array | Uint8Array, type: 'VEC3' | 'VEC4') =>
    accessor(dataAccessor(bin, data, type, GL.ARRAY_BUFFER));
  const positions = Float32Array.from(character.positions);
  const POSITION = accessor(dataAccessor(bin, positions, 'VEC3', GL.ARRAY_BUFFER, bounds(positions)));
  const NORMAL = vertex(Float32Array.from(character.normals), 'VEC3');
  const JOINTS_0 = vertex(n <= 256 ? Uint8Array.from(character.joints) : Uint16Array.from(character.joints), 'VEC4');
  const WEIGHTS_0 = vertex(Float32Array.from(character.weights), 'VEC4');
  const COLOR_0 = character.colors ? vertex(Float32Array.from(character.colors, clamp01), 'VEC3') : undefined;
  const wide = vertexCount > 65535;
  const primitives = character.parts.map((part, i) => ({
    attributes: { POSITION, NORMAL, JOINTS_0, WEIGHTS_0, ...(COLOR_0 === undefined ? {} : { COLOR_0 }) },
    indices: accessor(
      dataAccessor(
        bin,
        wide ? Uint32Array.from(part.indices) : Uint16Array.from(part.indices),
        'SCALAR',
        GL.ELEMENT_ARRAY_BUFFER,
      ),
    ),
    material: i,
  }));
  const materials = character.parts.map((part) => ({
    name: part.name,
    pbrMetallicRoughness: { baseColorFactor: [...part.color.map(clamp01), 1], metallicFactor: 0, roughnessFactor: 0.8 },
  }));

  // ---- the bones: node 0 holds the mesh, node i + 1 is bone i; local rest transforms; inverse bind matrices ----
  const boneNode = (i: number) => i + 1;
  const nodes: object[] = [{ name: character.name, mesh: 0, skin: 0 }];
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

  // ---- the takes: every track's rotations, then every track's positions ----
  const animations = character.takes.map((take) => {
    const times = Float32Array.from(take.times);
    const input = accessor(
      dataAccessor(bin, times, 'SCALAR', undefined, { min: [times[0] ?? 0], max: [times[times.length - 1] ?? 0] }),
    );
    const { samplers, channels, key } = linearChannels();
    const tracks = take.tracks.filter((t) => t.bone >= 0 && t.bone < n);
    for (const [path, type, values] of [
      ['rotation', 'VEC4', (t: (typeof tracks)[number]) => t.rotations],
      ['translation', 'VEC3', (t: (typeof tracks)[number]) => t.translations],
    ] as const)
      for (const track of tracks) {
        const keys = values(track);
        if (keys === undefined || keys.length === 0) continue;
        key(input, accessor(dataAccessor(bin, Float32Array.from(keys), type)), boneNode(track.bone), path);
      }
    return { name: take.name, samplers, channels };
  });

  const gltf = {
    scene: 0,
    scenes: [{ nodes: [0, ...roots] }],
    nodes,
    meshes: [{ name: character.name, primitives }],
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
  return writeGlb(gltf, accessors, bin, generator);
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
