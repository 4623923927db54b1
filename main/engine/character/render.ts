// The front view of a character at rest (its `render_url` and thumbnail): an orthographic software render seen
// from the way it faces, its materials' colours lit softly, with a depth buffer and 2×2 supersampling; and
// where each of its 17 joints lands on that picture (`animation_joint_dict`, pixels, +y down).
import { JOINT_NAMES, type JointName } from '../../../shared/contract/animation.ts';
import { encodePng } from '../../formats/png.ts';
import type { CharacterModel, V3 } from '../../formats/character.ts';
import { dot, normalize } from '../../formats/rig-math.ts';
import type { Rig } from './rig.ts';

const MARGIN = 0.06;
const SUPERSAMPLE = 2;
const BACKGROUND_TOP: V3 = [236, 239, 243];
const BACKGROUND_BOTTOM: V3 = [200, 206, 214];

/** The picture's projection: pixel x = ox + s·(p·right), y = oy − s·p.y, where `right` is the image's +x in world. */
export interface FrontView {
  size: number;
  right: V3;
  s: number;
  ox: number;
  oy: number;
}

/** The view that fits the whole character in a `size`-pixel square, seen from the way it faces (its left on the image's right). */
export function frontView(model: CharacterModel, rig: Rig, size: number): FrontView {
  const right = rig.left; // the character faces the camera: its left side is on the image's right
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  const p = model.positions;
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i]! * right[0] + p[i + 2]! * right[2];
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, p[i + 1]!);
    maxY = Math.max(maxY, p[i + 1]!);
  }
  const s = (size * (1 - 2 * MARGIN)) / Math.max(maxX - minX, maxY - minY, 1e-9);
  return { size, right, s, ox: size / 2 - ((minX + maxX) / 2) * s, oy: size / 2 + ((minY + maxY) / 2) * s };
}

/** Each joint in pixels of the view, rounded to a tenth. */
export function jointPixels(rig: Rig, view: FrontView): Record<JointName, [number, number]> {
  const out = {} as Record<JointName, [number, number]>;
  for (const joint of JOINT_NAMES) {
    const [x, y] = project(rig.points[joint], view);
    out[joint] = [round1(x), round1(y)];
  }
  return out;
}

function project(p: V3, v: FrontView): [number, number] {
  return [v.ox + v.s * (p[0] * v.right[0] + p[2] * v.right[2]), v.oy - v.s * p[1]];
}

export function renderCharacter(model: CharacterModel, view: FrontView): Buffer {
  const w = view.size * SUPERSAMPLE;
  const big: FrontView = {
    ...view,
    s: view.s * SUPERSAMPLE,
    ox: view.ox * SUPERSAMPLE,
    oy: view.oy * SUPERSAMPLE,
    size: w,
  };
  const toward: V3 = [-view.right[2], 0, view.right[0]]; // the direction to the camera: right × up
  const light = normalize([0.4 * view.right[0] + toward[0], 1.1, 0.4 * view.right[2] + toward[2]]);
  const rgb = new Float32Array(w * w * 3);
  for (let y = 0; y < w; y++) {
    const t = y / (w - 1);
    for (let x = 0; x < w; x++)
      for (let k = 0; k < 3; k++) rgb[(y * w + x) * 3 + k] = BACKGROUND_TOP[k]! * (1 - t) + BACKGROUND_BOTTOM[k]! * t;
  }
  const depth = new Float32Array(w * w).fill(-Infinity);
  const count = model.positions.length / 3;
  const sx = new Float32Array(count);
  const sy = new Float32Array(count);
  const sz = new Float32Array(count);
  for (let v = 0; v < count; v++) {
    const p: V3 = [model.positions[v * 3]!, model.positions[v * 3 + 1]!, model.positions[v * 3 + 2]!];
    [sx[v], sy[v]] = project(p, big);
    sz[v] = dot(p, toward);
  }
  for (const part of model.parts) {
    const base = part.color.map((c) => 255 * Math.min(1, Math.max(0, c)) ** (1 / 2.2));
    const idx = part.indices;
    for (let t = 0; t < idx.length; t += 3) {
      const a = idx[t]!;
      const b = idx[t + 1]!;
      const c = idx[t + 2]!;
      // Shade by the face's normal (both sides: the files' windings differ).
      const e1: V3 = [
        model.positions[b * 3]! - model.positions[a * 3]!,
        model.positions[b * 3 + 1]! - model.positions[a * 3 + 1]!,
        model.positions[b * 3 + 2]! - model.positions[a * 3 + 2]!,
      ];
      const e2: V3 = [
        model.positions[c * 3]! - model.positions[a * 3]!,
        model.positions[c * 3 + 1]! - model.positions[a * 3 + 1]!,
        model.positions[c * 3 + 2]! - model.positions[a * 3 + 2]!,
      ];
      const nrm = normalize([
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
      ]);
      const facing = dot(nrm, toward) < 0 ? -1 : 1;
      const shade = 0.45 + 0.55 * Math.max(0, facing * dot(nrm, light));
      // Vertex colours (linear) multiply the material's colour: the triangle's mean, to sRGB.
      const paint = [0, 1, 2].map((k) =>
        model.colors
          ? ((model.colors[a * 3 + k]! + model.colors[b * 3 + k]! + model.colors[c * 3 + k]!) / 3) ** (1 / 2.2)
          : 1,
      );
      fill(sx, sy, sz, a, b, c, w, (at, z) => {
        if (z <= depth[at]!) return;
        depth[at] = z;
        for (let k = 0; k < 3; k++) rgb[at * 3 + k] = base[k]! * paint[k]! * shade;
      });
    }
  }
  const size = view.size;
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      for (let k = 0; k < 3; k++) {
        let sum = 0;
        for (let dy = 0; dy < SUPERSAMPLE; dy++)
          for (let dx = 0; dx < SUPERSAMPLE; dx++)
            sum += rgb[((y * SUPERSAMPLE + dy) * w + x * SUPERSAMPLE + dx) * 3 + k]!;
        rgba[(y * size + x) * 4 + k] = Math.round(sum / SUPERSAMPLE ** 2);
      }
      rgba[(y * size + x) * 4 + 3] = 255;
    }
  }
  return encodePng(size, size, rgba);
}

/** Calls `plot` for each pixel centre inside the screen triangle abc with its interpolated depth. */
function fill(
  x: Float32Array,
  y: Float32Array,
  z: Float32Array,
  a: number,
  b: number,
  c: number,
  w: number,
  plot: (at: number, z: number) => void,
): void {
  const area = (x[b]! - x[a]!) * (y[c]! - y[a]!) - (x[c]! - x[a]!) * (y[b]! - y[a]!);
  if (Math.abs(area) < 1e-12) return;
  const x0 = Math.max(0, Math.floor(Math.min(x[a]!, x[b]!, x[c]!)));
  const x1 = Math.min(w - 1, Math.ceil(Math.max(x[a]!, x[b]!, x[c]!)));
  const y0 = Math.max(0, Math.floor(Math.min(y[a]!, y[b]!, y[c]!)));
  const y1 = Math.min(w - 1, Math.ceil(Math.max(y[a]!, y[b]!, y[c]!)));
  for (let py = y0; py <= y1; py++) {
    for (let px = x0; px <= x1; px++) {
      const cx = px + 0.5;
      const cy = py + 0.5;
      const wa = ((x[b]! - cx) * (y[c]! - cy) - (x[c]! - cx) * (y[b]! - cy)) / area;
      const wb = ((x[c]! - cx) * (y[a]! - cy) - (x[a]! - cx) * (y[c]! - cy)) / area;
      const wc = 1 - wa - wb;
      if (wa < 0 || wb < 0 || wc < 0) continue;
      plot(py * w + px, wa * z[a]! + wb * z[b]! + wc * z[c]!);
    }
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
