// A small software rasterizer: a mesh with its texture drawn into an RGBA image, orthographic, from any angle
// about the vertical axis, with a depth buffer, back-face culling, bilinear texturing and soft diffuse light.
// It draws the older flow's four spin views (the model seen from the front, right, back and left) and previews.
import type { PolygonMesh } from '../outputs/polygon-mesh.ts';
import { triangulate } from '../outputs/polygon-mesh.ts';
import { sampleRgba } from './raster.ts';

export interface Texture {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface RenderOptions {
  width: number;
  height: number;
  /** Turn of the model about +Y before it is seen from the front (+Z), radians: π/2 shows its right side. */
  yaw?: number;
  /** Tilt towards the viewer about +X after the turn, radians (a little from above when positive). */
  pitch?: number;
  /** RGBA 0-255; alpha 0 gives a cut-out picture. Default white. */
  background?: [number, number, number, number];
  /** Share of the picture left free around the model on its longer side; default 0.08. */
  margin?: number;
  /** Plain colour without light (for coverage checks); default false. */
  flat?: boolean;
  /** Where the turned model lands: pixel x = ox + x·scale, y = oy − y·scale; default: fitted within the margin. */
  view?: { scale: number; ox: number; oy: number };
}

const LIGHT = normalize([0.35, 0.55, 1]);
const AMBIENT = 0.5;

export function renderModel(
  mesh: PolygonMesh,
  texture: Texture | undefined,
  color: [number, number, number],
  opts: RenderOptions,
): Uint8Array {
  const { width, height } = opts;
  const yaw = opts.yaw ?? 0;
  const pitch = opts.pitch ?? 0;
  const cy = Math.cos(yaw);
  const sy = Math.sin(yaw);
  const cp = Math.cos(pitch);
  const sp = Math.sin(pitch);
  const count = mesh.positions.length / 3;
  const view = new Float32Array(count * 3);
  const normal = new Float32Array(count * 3);
  const turn = (src: Float32Array, dst: Float32Array, i: number) => {
    const x = src[i]!;
    const y = src[i + 1]!;
    const z = src[i + 2]!;
    const x1 = cy * x + sy * z;
    const z1 = -sy * x + cy * z;
    dst[i] = x1;
    dst[i + 1] = cp * y - sp * z1;
    dst[i + 2] = sp * y + cp * z1;
  };
  for (let i = 0; i < count * 3; i += 3) {
    turn(mesh.positions, view, i);
    turn(mesh.normals, normal, i);
  }
  // Fit the turned model in the picture.
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < count * 3; i += 3) {
    minX = Math.min(minX, view[i]!);
    maxX = Math.max(maxX, view[i]!);
    minY = Math.min(minY, view[i + 1]!);
    maxY = Math.max(maxY, view[i + 1]!);
  }
  const margin = opts.margin ?? 0.08;
  const fitted = Math.min(
    (width * (1 - 2 * margin)) / Math.max(1e-9, maxX - minX),
    (height * (1 - 2 * margin)) / Math.max(1e-9, maxY - minY),
  );
  const { scale, ox, oy } = opts.view ?? {
    scale: fitted,
    ox: width / 2 - ((minX + maxX) / 2) * fitted,
    oy: height / 2 + ((minY + maxY) / 2) * fitted,
  };
  const sx = new Float32Array(count);
  const syArr = new Float32Array(count);
  for (let v = 0; v < count; v++) {
    sx[v] = ox + view[v * 3]! * scale;
    syArr[v] = oy - view[v * 3 + 1]! * scale;
  }

  const background = opts.background ?? [255, 255, 255, 255];
  const out = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) out.set(background, p * 4);
  const depth = new Float32Array(width * height).fill(-Infinity);
  const triangles = triangulate(mesh);
  const sample = new Float32Array(4);
  const base = color.map((c) => c * 255);
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t]!;
    const b = triangles[t + 1]!;
    const c = triangles[t + 2]!;
    const ax = sx[a]!;
    const ay = syArr[a]!;
    const bx = sx[b]!;
    const by = syArr[b]!;
    const cx = sx[c]!;
    const cyv = syArr[c]!;
    // Counter-clockwise with y up is clockwise in picture rows: a negative area faces away.
    const area = (bx - ax) * (cyv - ay) - (by - ay) * (cx - ax);
    if (area >= 0) continue;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cyv)));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cyv)));
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const wa = ((bx - px) * (cyv - py) - (by - py) * (cx - px)) / area;
        const wb = ((cx - px) * (ay - py) - (cyv - py) * (ax - px)) / area;
        const wc = 1 - wa - wb;
        if (wa < 0 || wb < 0 || wc < 0) continue;
        const z = wa * view[a * 3 + 2]! + wb * view[b * 3 + 2]! + wc * view[c * 3 + 2]!;
        const p = y * width + x;
        if (z <= depth[p]!) continue;
        depth[p] = z;
        let r = base[0]!;
        let g = base[1]!;
        let bl = base[2]!;
        if (texture !== undefined) {
          const u = wa * mesh.uvs[a * 2]! + wb * mesh.uvs[b * 2]! + wc * mesh.uvs[c * 2]!;
          const v = wa * mesh.uvs[a * 2 + 1]! + wb * mesh.uvs[b * 2 + 1]! + wc * mesh.uvs[c * 2 + 1]!;
          sampleRgba(texture, u * texture.width, v * texture.height, sample);
          r = sample[0]!;
          g = sample[1]!;
          bl = sample[2]!;
        }
        let light = 1;
        if (!opts.flat) {
          const nx = wa * normal[a * 3]! + wb * normal[b * 3]! + wc * normal[c * 3]!;
          const ny = wa * normal[a * 3 + 1]! + wb * normal[b * 3 + 1]! + wc * normal[c * 3 + 1]!;
          const nz = wa * normal[a * 3 + 2]! + wb * normal[b * 3 + 2]! + wc * normal[c * 3 + 2]!;
          const len = Math.hypot(nx, ny, nz) || 1;
          light = AMBIENT + (1 - AMBIENT) * Math.max(0, (nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]) / len);
        }
        const o = p * 4;
        out[o] = Math.min(255, Math.round(r * light));
        out[o + 1] = Math.min(255, Math.round(g * light));
        out[o + 2] = Math.min(255, Math.round(bl * light));
        out[o + 3] = 255;
      }
    }
  }
  return out;
}

function normalize(v: [number, number, number]): [number, number, number] {
  const len = Math.hypot(...v);
  return [v[0] / len, v[1] / len, v[2] / len];
}
