// The standing figure of a mesh-animation session: its 17 joints in image pixels, and a render of the
// same figure, so `animation_joint_dict` matches what the render PNG shows.
import { JOINT_NAMES, type JointName } from '../../shared/contract/index.ts';
import { encodePng } from './outputs/index.ts';
import { hslToRgb, seededRandom } from './outputs/seeded.ts';

type Point = [number, number];

/** A front view on a 512-pixel canvas; the figure's right side (R_*) is on the image's left. */
const STANDING: Record<JointName, Point> = {
  Pelvis: [256, 272],
  R_Hip: [228, 276],
  R_Knee: [222, 372],
  R_Ankle: [218, 464],
  L_Hip: [284, 276],
  L_Knee: [290, 372],
  L_Ankle: [294, 464],
  Torso: [256, 206],
  Neck: [256, 142],
  Nose: [256, 106],
  Head: [256, 62],
  L_Shoulder: [304, 152],
  L_Elbow: [322, 222],
  L_Wrist: [332, 290],
  R_Shoulder: [208, 152],
  R_Elbow: [190, 222],
  R_Wrist: [180, 290],
};

const BONES: [JointName, JointName, number][] = [
  ['Pelvis', 'Torso', 48],
  ['Torso', 'Neck', 42],
  ['Neck', 'Nose', 14],
  ['R_Shoulder', 'L_Shoulder', 20],
  ['Pelvis', 'R_Hip', 26],
  ['Pelvis', 'L_Hip', 26],
  ['R_Hip', 'R_Knee', 18],
  ['R_Knee', 'R_Ankle', 12],
  ['L_Hip', 'L_Knee', 18],
  ['L_Knee', 'L_Ankle', 12],
  ['R_Shoulder', 'R_Elbow', 13],
  ['R_Elbow', 'R_Wrist', 9],
  ['L_Shoulder', 'L_Elbow', 13],
  ['L_Elbow', 'L_Wrist', 9],
];
const BASE_SIZE = 512;

/** Joint positions in pixels of a `size` x `size` render; arms and stance vary a little with the seed. */
export function jointPositions(seed: string, size = BASE_SIZE): Record<JointName, Point> {
  const random = seededRandom(`${seed}:pose`);
  const arms = (random() - 0.5) * 24; // wider or closer arms
  const stance = (random() - 0.5) * 12;
  const scale = size / BASE_SIZE;
  const out = {} as Record<JointName, Point>;
  for (const name of JOINT_NAMES) {
    const [x, y] = STANDING[name];
    const side = name.startsWith('R_') ? -1 : name.startsWith('L_') ? 1 : 0;
    const spread = /Elbow|Wrist/.test(name)
      ? arms * (name.includes('Wrist') ? 1.5 : 1)
      : /Knee|Ankle/.test(name)
        ? stance
        : 0;
    out[name] = [round1((x + side * spread) * scale), round1(y * scale)];
  }
  return out;
}

/** PNG of the figure: limbs as rounded capsules, a round head above the nose, on a soft backdrop. */
export function renderFigure(seed: string, size = BASE_SIZE): Buffer {
  const joints = jointPositions(seed, size);
  const scale = size / BASE_SIZE;
  const random = seededRandom(`${seed}:colours`);
  const hue = random();
  const body = hslToRgb(hue, 0.55, 0.55);
  const backTop = hslToRgb((hue + 0.5) % 1, 0.25, 0.92);
  const backBottom = hslToRgb((hue + 0.5) % 1, 0.2, 0.7);
  const segments = BONES.map(([a, b, width]) => ({ a: joints[a], b: joints[b], r: (width / 2) * scale }));
  const head = { c: [joints.Head[0], (joints.Head[1] + joints.Nose[1]) / 2 + 4 * scale] as Point, r: 30 * scale };

  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const p: Point = [x + 0.5, y + 0.5];
      let depth = Math.hypot(p[0] - head.c[0], p[1] - head.c[1]) - head.r; // signed distance to the figure
      for (const s of segments) depth = Math.min(depth, distanceToSegment(p, s.a, s.b) - s.r);
      const coverage = Math.min(1, Math.max(0, 0.5 - depth));
      const shade = 0.8 + 0.2 * Math.min(1, Math.max(0, -depth / (12 * scale))); // lighter towards the middle
      const at = (y * size + x) * 4;
      for (let k = 0; k < 3; k++) {
        const back = backTop[k]! + (backBottom[k]! - backTop[k]!) * (y / size);
        rgba[at + k] = Math.round(255 * (back + (body[k]! * shade - back) * coverage));
      }
      rgba[at + 3] = 255;
    }
  }
  return encodePng(size, size, rgba);
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const t = Math.min(1, Math.max(0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

const round1 = (x: number) => Math.round(x * 10) / 10;
