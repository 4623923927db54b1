// The preview image of a retopology, and the library's thumbnails (thumbnail.ts): a small software rasterizer
// draws the mesh from the front three-quarter view every 3D view of the app opens on (shared/views.ts: glTF's
// front faces +Z, turned towards the model's left, a little above), shaded in its materials' base colours
// (sampling a material's texture when one is given); for a retopology with the edges of its faces drawn over
// it, so the new topology shows: quads as quads, never their diagonals. Orthographic, a depth buffer, 2×2
// supersampling; a PNG.
import { eyeDirection, HOME_VIEW } from '../../shared/views.ts';
import { encodePng } from '../formats/png.ts';
import { decodeImage } from '../images/decode-image.ts';
import { type FaceMesh, faceTriangles } from './mesh.ts';

/** A decoded texture: width × height × 4 bytes (RGBA), rows top to bottom. */
export interface TexturePixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A material's base-colour texture, when it is a picture main/images reads (not WebP): else undefined (its colour is used). */
export function decodeTexture(bytes: Uint8Array): TexturePixels | undefined {
  try {
    return decodeImage(bytes);
  } catch {
    return undefined;
  }
}

const SUPERSAMPLE = 2;

type Planes = [Float32Array, Float32Array, Float32Array];
const EYE = eyeDirection(HOME_VIEW);
const LIGHT = normalize([0.5, 1.2, 1.3]);
const EDGE_DARKEN = 0.3;
const BACKGROUND_TOP = [236, 239, 243];
const BACKGROUND_BOTTOM = [204, 209, 216];

export interface PreviewOptions {
  /** Draw the faces' edges over the surface (default true: the retopology's topology shows); false for a plain render (the library's thumbnails). */
  edges?: boolean;
}

/** A `size` × `size` PNG of `mesh`; `textures[i]` is material i's decoded base-colour texture, if any. */
export function renderPreview(
  mesh: FaceMesh,
  size: number,
  textures: (TexturePixels | undefined)[] = [],
  options: PreviewOptions = {},
): Buffer {
  const w = size * SUPERSAMPLE;
  // One plane per channel, so that the background is a fill per row.
  const color: Planes = [new Float32Array(w * w), new Float32Array(w * w), new Float32Array(w * w)];
  for (let y = 0; y < w; y++) {
    const t = y / (w - 1);
    color.forEach(
      (plane, k) => void plane.fill(BACKGROUND_TOP[k]! * (1 - t) + BACKGROUND_BOTTOM[k]! * t, y * w, (y + 1) * w),
    );
  }
  const depth = new Float32Array(w * w).fill(-Infinity);
  const { screen, radius } = project(mesh.positions, w);

  // Each material's base colour, sRGB 0-255.
  const bases = Float64Array.from(
    mesh.materials.flatMap((m) => m.color.slice(0, 3).map((x) => 255 * Math.min(1, Math.max(0, x)) ** (1 / 2.2))),
  );
  const triangles = faceTriangles(mesh);
  for (let t = 0; t < triangles.length; t += 3)
    fillTriangle(mesh, screen, triangles[t]!, triangles[t + 1]!, triangles[t + 2]!, w, color, depth, bases, textures);

  // Face edges over the surface: drawn where they are not behind it (a small depth tolerance).
  if (options.edges ?? true) {
    const tolerance = radius * 0.006;
    const line = (a: number, b: number) => drawEdge(screen, a, b, w, color, depth, tolerance);
    for (let q = 0; q < mesh.quads.length; q += 4)
      for (let k = 0; k < 4; k++) line(mesh.quads[q + k]!, mesh.quads[q + ((k + 1) % 4)]!);
    for (let t = 0; t < mesh.triangles.length; t += 3)
      for (let k = 0; k < 3; k++) line(mesh.triangles[t + k]!, mesh.triangles[t + ((k + 1) % 3)]!);
  }

  // Each image pixel is the mean of its 2 × 2 samples.
  const rgba = new Uint8Array(size * size * 4).fill(255);
  color.forEach((plane, k) => {
    for (let y = 0; y < size; y++) {
      const top = 2 * y * w;
      const out = y * size * 4 + k;
      for (let x = 0; x < size; x++) {
        const at = top + 2 * x;
        rgba[out + x * 4] = Math.round((plane[at]! + plane[at + 1]! + plane[at + w]! + plane[at + w + 1]!) / 4);
      }
    }
  });
  return encodePng(size, size, rgba);
}

/** Screen x, y (pixels, y down) and depth (towards the eye) per vertex, the model filling 90% of the frame. */
function project(positions: Float32Array, w: number): { screen: Float64Array; radius: number } {
  const n = positions.length / 3;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < n; v++) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, positions[v * 3 + k]!);
      max[k] = Math.max(max[k]!, positions[v * 3 + k]!);
    }
  }
  const centre = [0, 1, 2].map((k) => (min[k]! + max[k]!) / 2);
  const right = normalize(cross(neg(EYE), [0, 1, 0]));
  const up = cross(right, neg(EYE));
  const screen = new Float64Array(n * 3);
  let radius = 0;
  for (let v = 0; v < n; v++) {
    const p = [0, 1, 2].map((k) => positions[v * 3 + k]! - centre[k]!);
    screen[v * 3] = dot(p, right);
    screen[v * 3 + 1] = dot(p, up);
    screen[v * 3 + 2] = dot(p, EYE);
    radius = Math.max(radius, Math.hypot(screen[v * 3]!, screen[v * 3 + 1]!));
  }
  const scale = radius > 0 ? (w * 0.45) / radius : 1;
  for (let v = 0; v < n; v++) {
    screen[v * 3] = w / 2 + screen[v * 3]! * scale;
    screen[v * 3 + 1] = w / 2 - screen[v * 3 + 1]! * scale;
  }
  return { screen, radius: Math.max(radius, 1e-9) };
}

function fillTriangle(
  mesh: FaceMesh,
  s: Float64Array,
  a: number,
  b: number,
  c: number,
  w: number,
  color: Planes,
  depth: Float32Array,
  bases: Float64Array,
  textures: (TexturePixels | undefined)[],
): void {
  const ax = s[a * 3]!;
  const ay = s[a * 3 + 1]!;
  const az = s[a * 3 + 2]!;
  const bx = s[b * 3]!;
  const by = s[b * 3 + 1]!;
  const bz = s[b * 3 + 2]!;
  const cx = s[c * 3]!;
  const cy = s[c * 3 + 1]!;
  const cz = s[c * 3 + 2]!;
  const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  if (area === 0) return;

  // Lambert shading of the face's world normal, lit from both sides.
  const p = mesh.positions;
  const ux = p[b * 3]! - p[a * 3]!;
  const uy = p[b * 3 + 1]! - p[a * 3 + 1]!;
  const uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
  const vx = p[c * 3]! - p[a * 3]!;
  const vy = p[c * 3 + 1]! - p[a * 3 + 1]!;
  const vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const length = Math.hypot(nx, ny, nz) || 1;
  const facing = nx * EYE[0]! + ny * EYE[1]! + nz * EYE[2]! < 0 ? -1 : 1;
  const light = 0.3 + 0.7 * Math.max(0, (facing * (nx * LIGHT[0]! + ny * LIGHT[1]! + nz * LIGHT[2]!)) / length);
  const material = mesh.materialOf[a]!;
  const texture = mesh.uvs === undefined ? undefined : textures[material];

  const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
  const x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx, cx)));
  const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
  const y1 = Math.min(w - 1, Math.ceil(Math.max(ay, by, cy)));
  // Barycentric weights are linear in the pixel's centre: l = ex·x + ey·y + e0.
  const e1x = (by - cy) / area;
  const e1y = (cx - bx) / area;
  const e10 = (bx * cy - by * cx) / area;
  const e2x = (cy - ay) / area;
  const e2y = (ax - cx) / area;
  const e20 = (cx * ay - cy * ax) / area;
  const r = bases[material * 3]! * light;
  const g = bases[material * 3 + 1]! * light;
  const bl = bases[material * 3 + 2]! * light;
  const uv = mesh.uvs;
  for (let y = y0; y <= y1; y++) {
    const py = y + 0.5;
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5;
      const l0 = e1x * px + e1y * py + e10;
      const l1 = e2x * px + e2y * py + e20;
      const l2 = 1 - l0 - l1;
      if (l0 < 0 || l1 < 0 || l2 < 0) continue;
      const z = l0 * az + l1 * bz + l2 * cz;
      const at = y * w + x;
      if (z <= depth[at]!) continue;
      depth[at] = z;
      if (texture === undefined || uv === undefined) {
        color[0][at] = r;
        color[1][at] = g;
        color[2][at] = bl;
        continue;
      }
      const texel = sample(
        texture,
        l0 * uv[a * 2]! + l1 * uv[b * 2]! + l2 * uv[c * 2]!,
        l0 * uv[a * 2 + 1]! + l1 * uv[b * 2 + 1]! + l2 * uv[c * 2 + 1]!,
      );
      color[0][at] = (r * texture.data[texel]!) / 255;
      color[1][at] = (g * texture.data[texel + 1]!) / 255;
      color[2][at] = (bl * texture.data[texel + 2]!) / 255;
    }
  }
}

/** Where the texel at (u, v) starts in the texture's data (glTF convention: v down; repeating). */
function sample(texture: TexturePixels, u: number, v: number): number {
  const x = Math.min(texture.width - 1, Math.floor((u - Math.floor(u)) * texture.width));
  const y = Math.min(texture.height - 1, Math.floor((v - Math.floor(v)) * texture.height));
  return (y * texture.width + x) * 4;
}

function drawEdge(
  s: Float64Array,
  a: number,
  b: number,
  w: number,
  color: Planes,
  depth: Float32Array,
  tolerance: number,
): void {
  const ax = s[a * 3]!;
  const ay = s[a * 3 + 1]!;
  const az = s[a * 3 + 2]!;
  const dx = s[b * 3]! - ax;
  const dy = s[b * 3 + 1]! - ay;
  const dz = s[b * 3 + 2]! - az;
  const steps = Math.max(1, Math.ceil(Math.max(Math.abs(dx), Math.abs(dy))));
  const [r, g, bl] = color;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const x = Math.floor(ax + dx * t);
    const y = Math.floor(ay + dy * t);
    const z = az + dz * t;
    // One pixel wide at the supersampled size: a half-tone line in the image, which reads as anti-aliased.
    if (x < 0 || y < 0 || x >= w || y >= w) continue;
    const at = y * w + x;
    const d = depth[at]!;
    if (d === -Infinity || z < d - tolerance) continue;
    r[at] = r[at]! * EDGE_DARKEN;
    g[at] = g[at]! * EDGE_DARKEN;
    bl[at] = bl[at]! * EDGE_DARKEN;
    depth[at] = Infinity; // darkened once, not again by the next edge through it
  }
}

type V3 = number[];
function normalize(v: V3): V3 {
  const l = Math.hypot(v[0]!, v[1]!, v[2]!) || 1;
  return [v[0]! / l, v[1]! / l, v[2]! / l];
}
const cross = (a: V3, b: V3): V3 => [
  a[1]! * b[2]! - a[2]! * b[1]!,
  a[2]! * b[0]! - a[0]! * b[2]!,
  a[0]! * b[1]! - a[1]! * b[0]!,
];
const dot = (a: V3, b: V3) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const neg = (a: V3): V3 => [-a[0]!, -a[1]!, -a[2]!];
