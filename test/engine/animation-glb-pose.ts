// Reading a skinned, animated GLB back for the animation tests: its nodes' world positions at a time of a
// clip (the clip's keys sampled linearly, forward kinematics over the node tree) and the skinned mesh at
// that moment, from the file's own JSON and binary chunks (no Babylon, no engine code).
type V3 = [number, number, number];
type Q = [number, number, number, number];

export interface Gltf {
  nodes: {
    name?: string;
    mesh?: number;
    skin?: number;
    translation?: V3;
    rotation?: Q;
    scale?: V3;
    children?: number[];
  }[];
  skins: { joints: number[]; inverseBindMatrices: number }[];
  meshes: { primitives: { attributes: Record<string, number>; indices: number }[] }[];
  animations?: {
    name: string;
    channels: { sampler: number; target: { node: number; path: string } }[];
    samplers: { input: number; output: number }[];
  }[];
  accessors: { bufferView: number; count: number; type: string; componentType: number; max?: number[] }[];
  bufferViews: { byteOffset?: number; byteLength: number }[];
}

export function readGlb(buf: Buffer): { gltf: Gltf; bin: Buffer } {
  const jsonLength = buf.readUInt32LE(12);
  const gltf = JSON.parse(buf.toString('utf8', 20, 20 + jsonLength)) as Gltf;
  const binStart = 20 + jsonLength + 8;
  return { gltf, bin: buf.subarray(binStart, binStart + buf.readUInt32LE(20 + jsonLength)) };
}

const SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 };

export function accessorData({ gltf, bin }: { gltf: Gltf; bin: Buffer }, index: number): number[] {
  const a = gltf.accessors[index]!;
  const view = gltf.bufferViews[a.bufferView]!;
  const n = a.count * SIZE[a.type]!;
  const at = view.byteOffset ?? 0;
  const copy = Buffer.from(bin.subarray(at, at + view.byteLength));
  const typed =
    a.componentType === 5126
      ? new Float32Array(copy.buffer, copy.byteOffset, n)
      : a.componentType === 5121
        ? new Uint8Array(copy.buffer, copy.byteOffset, n)
        : a.componentType === 5123
          ? new Uint16Array(copy.buffer, copy.byteOffset, n)
          : new Uint32Array(copy.buffer, copy.byteOffset, n);
  return Array.from(typed);
}

/** Column-major 4×4 from translation, rotation, scale. */
function trs(t: V3 = [0, 0, 0], q: Q = [0, 0, 0, 1], s: V3 = [1, 1, 1]): number[] {
  const [x, y, z, w] = q;
  return [
    (1 - 2 * (y * y + z * z)) * s[0],
    2 * (x * y + z * w) * s[0],
    2 * (x * z - y * w) * s[0],
    0,
    2 * (x * y - z * w) * s[1],
    (1 - 2 * (x * x + z * z)) * s[1],
    2 * (y * z + x * w) * s[1],
    0,
    2 * (x * z + y * w) * s[2],
    2 * (y * z - x * w) * s[2],
    (1 - 2 * (x * x + y * y)) * s[2],
    0,
    t[0],
    t[1],
    t[2],
    1,
  ];
}

function mul(a: number[], b: number[]): number[] {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] += a[k * 4 + r]! * b[c * 4 + k]!;
  return out;
}

const apply = (m: number[], p: V3): V3 => [
  m[0]! * p[0] + m[4]! * p[1] + m[8]! * p[2] + m[12]!,
  m[1]! * p[0] + m[5]! * p[1] + m[9]! * p[2] + m[13]!,
  m[2]! * p[0] + m[6]! * p[1] + m[10]! * p[2] + m[14]!,
];

/** World matrices of every node at `time` of animation `clip` (undefined: the rest pose). */
export function worldMatrices(file: { gltf: Gltf; bin: Buffer }, clip?: number, time = 0): number[][] {
  const { gltf } = file;
  const local = gltf.nodes.map((n) => ({ t: n.translation, r: n.rotation, s: n.scale }));
  const anim = clip === undefined ? undefined : gltf.animations![clip]!;
  for (const ch of anim?.channels ?? []) {
    const s = anim!.samplers[ch.sampler]!;
    const times = accessorData(file, s.input);
    const values = accessorData(file, s.output);
    const width = ch.target.path === 'rotation' ? 4 : 3;
    let k = 0;
    while (k < times.length - 2 && times[k + 1]! <= time) k++;
    const u = Math.min(1, Math.max(0, (time - times[k]!) / (times[k + 1]! - times[k]! || 1)));
    const v = Array.from(
      { length: width },
      (_, j) => values[k * width + j]! * (1 - u) + values[(k + 1) * width + j]! * u,
    );
    if (width === 4) {
      const n = Math.hypot(...v);
      local[ch.target.node]!.r = v.map((x) => x / n) as Q;
    } else local[ch.target.node]![ch.target.path === 'translation' ? 't' : 's'] = v as V3;
  }
  const parent = new Map<number, number>();
  for (const [i, n] of gltf.nodes.entries()) for (const c of n.children ?? []) parent.set(c, i);
  const world: number[][] = [];
  const of = (i: number): number[] => {
    if (world[i]) return world[i]!;
    const m = trs(local[i]!.t, local[i]!.r, local[i]!.s);
    world[i] = parent.has(i) ? mul(of(parent.get(i)!), m) : m;
    return world[i]!;
  };
  for (let i = 0; i < gltf.nodes.length; i++) of(i);
  return world;
}

/** A node's world position at `time` of `clip`, by node name. */
export function nodePosition(file: { gltf: Gltf; bin: Buffer }, name: string, clip?: number, time = 0): V3 {
  const i = file.gltf.nodes.findIndex((n) => n.name === name);
  if (i < 0) throw new Error(`no node named ${name}`);
  const m = worldMatrices(file, clip, time)[i]!;
  return [m[12]!, m[13]!, m[14]!];
}

/** The skinned mesh's vertex positions at `time` of `clip` (linear blend skinning with the file's inverse binds). */
export function skinnedPositions(file: { gltf: Gltf; bin: Buffer }, clip?: number, time = 0): V3[] {
  const { gltf } = file;
  const world = worldMatrices(file, clip, time);
  const skin = gltf.skins[0]!;
  const ibm = accessorData(file, skin.inverseBindMatrices);
  const jointMatrix = skin.joints.map((node, j) => mul(world[node]!, ibm.slice(j * 16, j * 16 + 16)));
  const prim = gltf.meshes[0]!.primitives[0]!;
  const pos = accessorData(file, prim.attributes.POSITION!);
  const joints = accessorData(file, prim.attributes.JOINTS_0!);
  const weights = accessorData(file, prim.attributes.WEIGHTS_0!);
  const out: V3[] = [];
  for (let v = 0; v < pos.length / 3; v++) {
    const p: V3 = [pos[v * 3]!, pos[v * 3 + 1]!, pos[v * 3 + 2]!];
    const sum: V3 = [0, 0, 0];
    for (let k = 0; k < 4; k++) {
      const w = weights[v * 4 + k]!;
      if (w === 0) continue;
      const q = apply(jointMatrix[joints[v * 4 + k]!]!, p);
      for (let d = 0; d < 3; d++) sum[d] = sum[d]! + w * q[d]!;
    }
    out.push(sum);
  }
  return out;
}
