// An animated, skinned humanoid as glTF 2.0 binary (GLB): bones named like Mixamo's (`mixamorig:Hips`…)
// whose rest pose is the 17-joint figure of the session's render (so `animation_joint_dict` and the rig
// agree), a body of boxes each bound to one bone, and one looping clip per name: Idle, Walk, Run, Jump, a
// text prompt naming one of those kinds of motion (motion-words.ts), or for any other text a motion whose
// amplitudes and tempo come from the text.
import type { JointName } from '../../../shared/contract/animation.ts';
import { BinaryBody, bounds, dataAccessor, GL, linearChannels } from '../../formats/glb.ts';
import { engineGlb } from './glb.ts';
import { hslToRgb, seededRandom } from './seeded.ts';
import { motionKindOf } from '../motion-words.ts';
import { keyTimes } from '../../formats/rig-math.ts';

export interface AnimatedGlbOptions {
  seed: string;
  /** The 17 joints in pixels of a square render of `size` pixels (front view, +y down). */
  joints: Record<JointName, [number, number]>;
  size: number;
  /** One clip per name: Idle, Walk, Run, Jump, or any text (a prompt). */
  clips: string[];
}

type V3 = [number, number, number];
interface Bone {
  name: string;
  joint?: JointName;
  parent?: string;
  /** Where the bone's box ends: another joint, or an offset (metres) from the bone. */
  to?: JointName;
  end?: V3;
  /** Half thickness of the box (metres). */
  r: number;
}

const SKELETON: Bone[] = [
  { name: 'Hips', joint: 'Pelvis', to: 'Torso', r: 0.11 },
  { name: 'Spine', joint: 'Torso', parent: 'Hips', to: 'Neck', r: 0.12 },
  { name: 'Neck', joint: 'Neck', parent: 'Spine', to: 'Nose', r: 0.04 },
  { name: 'Head', joint: 'Head', parent: 'Neck', end: [0, 0.12, 0], r: 0.1 },
  ...(['Left', 'Right'] as const).flatMap((side): Bone[] => {
    const s = side === 'Left' ? 'L' : 'R';
    return [
      { name: `${side}UpLeg`, joint: `${s}_Hip`, parent: 'Hips', to: `${s}_Knee`, r: 0.07 },
      { name: `${side}Leg`, joint: `${s}_Knee`, parent: `${side}UpLeg`, to: `${s}_Ankle`, r: 0.055 },
      { name: `${side}Foot`, joint: `${s}_Ankle`, parent: `${side}Leg`, end: [0, -0.06, 0.14], r: 0.045 },
      { name: `${side}Arm`, joint: `${s}_Shoulder`, parent: 'Spine', to: `${s}_Elbow`, r: 0.045 },
      { name: `${side}ForeArm`, joint: `${s}_Elbow`, parent: `${side}Arm`, to: `${s}_Wrist`, r: 0.038 },
      { name: `${side}Hand`, joint: `${s}_Wrist`, parent: `${side}ForeArm`, end: [0, -0.1, 0], r: 0.035 },
    ];
  }),
];
const PREFIX = 'mixamorig:';
const HEIGHT = 1.75; // metres from the ankles' floor to the top of the head
const FPS = 24;

export function buildAnimatedGlb(opts: AnimatedGlbOptions): Buffer {
  const at = figurePoints(opts);
  const world = SKELETON.map((b) => at(b.joint!));
  const index = new Map(SKELETON.map((b, i) => [b.name, i]));

  // ---- body: one box per bone, fully weighted to it ----
  const positions: number[] = [];
  const normals: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  const indices: number[] = [];
  SKELETON.forEach((bone, i) => {
    const a = world[i]!;
    const b = bone.to ? at(bone.to) : add(a, bone.end!);
    for (const v of box(a, b, bone.r)) {
      indices.push(...v.indices.map((k) => k + positions.length / 3));
      positions.push(...v.positions);
      normals.push(...v.normals);
      for (let k = 0; k < v.positions.length / 3; k++) {
        joints.push(i, 0, 0, 0);
        weights.push(1, 0, 0, 0);
      }
    }
  });

  const bin = new BinaryBody();
  const accessors: object[] = [];
  const accessor = (a: object) => accessors.push(a) - 1;
  const vertex = (data: Float32Array | Uint8Array, type: 'VEC3' | 'VEC4') =>
    accessor(dataAccessor(bin, data, type, GL.ARRAY_BUFFER));
  const POSITION = accessor(dataAccessor(bin, new Float32Array(positions), 'VEC3', GL.ARRAY_BUFFER, bounds(positions)));
  const NORMAL = vertex(new Float32Array(normals), 'VEC3');
  const JOINTS_0 = vertex(new Uint8Array(joints), 'VEC4');
  const WEIGHTS_0 = vertex(new Float32Array(weights), 'VEC4');
  const INDICES = accessor(dataAccessor(bin, new Uint16Array(indices), 'SCALAR', GL.ELEMENT_ARRAY_BUFFER));
  // Inverse bind matrices: the bones have no rest rotation, so each is a translation by minus the bone's position.
  const ibm = new Float32Array(SKELETON.length * 16);
  world.forEach((p, i) => {
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -p[0], -p[1], -p[2], 1], i * 16);
  });
  const IBM = accessor(dataAccessor(bin, ibm, 'MAT4'));

  // ---- nodes: 0 the skinned mesh, 1… the bones ----
  const boneNode = (i: number) => i + 1;
  const nodes: object[] = [{ name: 'body', mesh: 0, skin: 0 }];
  SKELETON.forEach((bone, i) => {
    const parent = bone.parent === undefined ? undefined : index.get(bone.parent)!;
    const local = parent === undefined ? world[i]! : sub(world[i]!, world[parent]!);
    const children = SKELETON.flatMap((b, k) => (b.parent === bone.name ? [boneNode(k)] : []));
    nodes.push({ name: PREFIX + bone.name, translation: local, ...(children.length ? { children } : {}) });
  });

  // ---- animations: rotations of the limbs, the hips' translation ----
  const animations = opts.clips.map((clip) => {
    const motion = motionOf(clip, opts.seed);
    const times = Float32Array.from(keyTimes(motion.period, FPS));
    const frames = times.length;
    const input = accessor(dataAccessor(bin, times, 'SCALAR', undefined, { min: [0], max: [motion.period] }));
    const { samplers, channels, key } = linearChannels();
    for (const [name, angles] of Object.entries(motion.rotations)) {
      const i = index.get(name)!;
      const q = new Float32Array(frames * 4);
      for (let f = 0; f < frames; f++) q.set(euler(angles((f / (frames - 1)) * Math.PI * 2)), f * 4);
      key(input, accessor(dataAccessor(bin, q, 'VEC4')), boneNode(i), 'rotation');
    }
    const t = new Float32Array(frames * 3);
    for (let f = 0; f < frames; f++) t.set(add(world[0]!, motion.hips((f / (frames - 1)) * Math.PI * 2)), f * 3);
    key(input, accessor(dataAccessor(bin, t, 'VEC3')), boneNode(0), 'translation');
    return { name: clip, samplers, channels };
  });

  const colour = hslToRgb(seededRandom(`${opts.seed}:colours`)(), 0.55, 0.55);
  const gltf = {
    scene: 0,
    scenes: [{ nodes: [0, boneNode(0)] }],
    nodes,
    meshes: [
      {
        name: 'body',
        primitives: [{ attributes: { POSITION, NORMAL, JOINTS_0, WEIGHTS_0 }, indices: INDICES, material: 0 }],
      },
    ],
    materials: [
      {
        name: 'body',
        pbrMetallicRoughness: { baseColorFactor: [...colour, 1], metallicFactor: 0, roughnessFactor: 0.7 },
      },
    ],
    skins: [
      { name: 'rig', inverseBindMatrices: IBM, joints: SKELETON.map((_, i) => boneNode(i)), skeleton: boneNode(0) },
    ],
    animations,
  };
  return engineGlb(gltf, accessors, bin);
}

/** The bone names of the rig, as they appear in the file. */
export const ANIMATED_BONES: readonly string[] = SKELETON.map((b) => PREFIX + b.name);

/** World positions (metres, +y up, facing +z) of the figure's joints, feet on the floor. */
function figurePoints({ joints, size }: AnimatedGlbOptions): (joint: JointName) => V3 {
  const floor = Math.max(joints.L_Ankle[1], joints.R_Ankle[1]);
  const top = joints.Head[1] - (floor - joints.Head[1]) * 0.06;
  const scale = HEIGHT / Math.max(1, floor - top);
  const centre = size / 2;
  // The figure faces the camera: its left side (L_*) is on the image's right, which is +x in glTF's front view.
  return (joint) => {
    const [x, y] = joints[joint];
    return [round((x - centre) * scale), round((floor - y) * scale + 0.08), 0];
  };
}

type Angles = (phase: number) => V3;
interface Motion {
  period: number;
  rotations: Record<string, Angles>;
  hips: (phase: number) => V3;
}

/** Limb rotations (x = swing forward/back, z = out to the side) over one loop; phase runs 0…2π. */
function motionOf(clip: string, seed: string): Motion {
  const still: Angles = () => [0, 0, 0];
  const swing =
    (amp: number, offset = 0, base: V3 = [0, 0, 0]): Angles =>
    (p) => [base[0] + amp * Math.sin(p + offset), base[1], base[2]];
  const bend =
    (amp: number, offset = 0): Angles =>
    (p) => [amp * Math.max(0, Math.sin(p + offset)), 0, 0];
  const arms = (down: number): Record<string, Angles> => ({
    LeftArm: (p) => [0, 0, down + 0.03 * Math.sin(p)],
    RightArm: (p) => [0, 0, -down - 0.03 * Math.sin(p)],
  });
  const gait = (
    legAmp: number,
    kneeAmp: number,
    armAmp: number,
    bob: number,
    period: number,
    lean: number,
  ): Motion => ({
    period,
    rotations: {
      LeftUpLeg: swing(-legAmp),
      RightUpLeg: swing(legAmp),
      LeftLeg: bend(kneeAmp, 0),
      RightLeg: bend(kneeAmp, Math.PI),
      LeftArm: swing(legAmp * armAmp, 0, [0, 0, 0.2]),
      RightArm: swing(-legAmp * armAmp, 0, [0, 0, -0.2]),
      LeftForeArm: (p) => [-0.3 - 0.2 * Math.sin(p), 0, 0],
      RightForeArm: (p) => [-0.3 + 0.2 * Math.sin(p), 0, 0],
      Spine: () => [lean, 0, 0],
      Head: still,
    },
    hips: (p) => [0, bob * Math.abs(Math.sin(p)), 0],
  });
  const library = ['idle', 'walk', 'run', 'jump'];
  const named = clip.toLowerCase();
  const kind = library.includes(named) ? named : motionKindOf(clip);
  switch (kind) {
    case 'idle':
      return {
        period: 3,
        rotations: {
          Spine: (p) => [0.03 * Math.sin(p), 0, 0],
          Head: (p) => [0, 0.12 * Math.sin(p), 0],
          Neck: (p) => [0.04 * Math.sin(p), 0, 0],
          ...arms(1.0),
        },
        hips: (p) => [0, 0.01 * Math.sin(p * 2), 0],
      };
    case 'walk':
      return gait(0.45, 0.6, 0.8, 0.03, 1.1, 0.05);
    case 'run':
      return gait(0.8, 1.3, 1, 0.07, 0.7, 0.2);
    case 'jump':
      return {
        period: 1.2,
        rotations: {
          LeftUpLeg: (p) => [-0.9 * crouch(p), 0, 0],
          RightUpLeg: (p) => [-0.9 * crouch(p), 0, 0],
          LeftLeg: (p) => [1.6 * crouch(p), 0, 0],
          RightLeg: (p) => [1.6 * crouch(p), 0, 0],
          LeftFoot: (p) => [-0.6 * crouch(p), 0, 0],
          RightFoot: (p) => [-0.6 * crouch(p), 0, 0],
          LeftArm: (p) => [-2.2 * air(p), 0, 0.3],
          RightArm: (p) => [-2.2 * air(p), 0, -0.3],
          Spine: (p) => [0.3 * crouch(p), 0, 0],
        },
        hips: (p) => [0, 0.45 * air(p) - 0.3 * crouch(p), 0],
      };
    default: {
      const r = seededRandom(`${seed}:motion:${clip}`);
      return gait(0.2 + r() * 0.7, 0.3 + r() * 1.1, r() * 1.5, r() * 0.1, 0.6 + r() * 1.6, (r() - 0.3) * 0.4);
    }
  }
}

/** The jump: a crouch (phase 0…π/2, and landing after 3π/2), in the air in between. */
const crouch = (p: number) => Math.max(0, Math.cos(p)) ** 2;
const air = (p: number) => Math.max(0, -Math.cos(p));

/** A unit quaternion [x, y, z, w] from rotations about x, then y, then z. */
function euler([x, y, z]: V3): [number, number, number, number] {
  const [cx, sx] = [Math.cos(x / 2), Math.sin(x / 2)];
  const [cy, sy] = [Math.cos(y / 2), Math.sin(y / 2)];
  const [cz, sz] = [Math.cos(z / 2), Math.sin(z / 2)];
  const q: [number, number, number, number] = [
    sx * cy * cz - cx * sy * sz,
    cx * sy * cz + sx * cy * sz,
    cx * cy * sz - sx * sy * cz,
    cx * cy * cz + sx * sy * sz,
  ];
  const n = Math.hypot(...q);
  return q.map((v) => v / n) as [number, number, number, number];
}

/** A box of half-thickness r around the segment a→b: 24 vertices (flat normals), 12 triangles. */
function box(a: V3, b: V3, r: number): { positions: number[]; normals: number[]; indices: number[] }[] {
  const lo: V3 = [Math.min(a[0], b[0]) - r, Math.min(a[1], b[1]) - r, Math.min(a[2], b[2]) - r];
  const hi: V3 = [Math.max(a[0], b[0]) + r, Math.max(a[1], b[1]) + r, Math.max(a[2], b[2]) + r];
  const faces: { n: V3; corners: V3[] }[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const sign of [-1, 1]) {
      const n: V3 = [0, 0, 0];
      n[axis] = sign;
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      const corners = [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ].map(([cu, cv]) => {
        const p: V3 = [0, 0, 0];
        p[axis] = sign > 0 ? hi[axis]! : lo[axis]!;
        p[u] = cu ? hi[u]! : lo[u]!;
        p[v] = cv ? hi[v]! : lo[v]!;
        return p;
      });
      faces.push({ n, corners: sign > 0 ? corners : corners.reverse() });
    }
  }
  return faces.map(({ n, corners }) => ({
    positions: corners.flat(),
    normals: corners.flatMap(() => n),
    indices: [0, 1, 2, 0, 2, 3],
  }));
}

const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const round = (x: number) => Math.round(x * 1e4) / 1e4;
