// A 3D model from two pictures of one object (multiview_to_3d): its front view and its right side view. The
// subject of each is found as for image-to-3D (segment.ts); the model is their visual hull, the intersection of
// the front silhouette extruded along the depth and the side silhouette extruded across the width, carved on a
// voxel grid whose outer faces become the mesh (closed, quads, vertices shared). Seen from the front (+Z), the
// model's outline is the first picture's subject; seen from its right (+X), the second's. Both pictures are
// scaled to the same height (their subjects' bottom and top meet). It is painted from the front: the front
// picture's subject, cropped to its box, projected along the depth onto every face.
//
// Frames: X right, Y up, the front facing +Z (as the other meshes). The side picture is the object seen from its
// right: the picture's left is the object's front (+Z), its right the back.
import * as z from 'zod';
import { decodeImage, type RgbaImage } from '../../images/decode-image.ts';
import type { Vec3 } from '../outputs/mesh.ts';
import { encodePng } from '../../formats/png.ts';
import { type MeshMaterial, type PolygonMesh, triangulate, weldedNormals } from '../outputs/polygon-mesh.ts';
import { MIN_FACES, placeModel } from './mesh-options.ts';
import { modelCache } from './model-cache.ts';
import { downscale, sampleRgba } from './raster.ts';
import type { Texture } from './rasterize.ts';
import { segmentSubject, type Segmentation } from './segment.ts';
import { MAX_GENERATION_FACES } from '../../../shared/contract/v3.ts';

const vec3 = z.tuple([z.number(), z.number(), z.number()]);

export const multiviewMeshSchema = z.object({
  /** File key of the stored front picture. */
  front: z.string().min(1),
  /** File key of the stored side picture (the object seen from its right). */
  side: z.string().min(1),
  /** Most faces (quads count one when `quads`, else triangles). */
  faces: z.number().int().min(MIN_FACES).max(MAX_GENERATION_FACES),
  quads: z.boolean(),
  texture: z.enum(['none', 'baked', 'pbr']),
  scale: vec3.optional(),
  preserveAspectRatio: z.boolean().optional(),
  pivot: vec3.optional(),
});
export type MultiviewMesh = z.infer<typeof multiviewMeshSchema>;

export interface HullModel {
  mesh: PolygonMesh;
  material: MeshMaterial;
  /** The base colour texture as pixels (for renders); absent for texture_model none. */
  texture?: Texture;
  color: Vec3;
  /** Voxels across the width, height and depth. */
  grid: [number, number, number];
}

/** Silhouettes are read from the pictures shrunk to at most this many pixels a side. */
const WORKING_SIDE = 384;
/** Finest and coarsest grid heights (voxels from bottom to top). */
const MAX_ROWS = 160;
const MIN_ROWS = 8;
/** Most voxels along any side (wide or deep subjects get fewer rows), so a grid stays within a few million voxels. */
const MAX_SIDE = 192;
const TEXTURE_SIDE = 512;
const models = modelCache<MultiviewMesh, HullModel>();

/** The model of `spec` from the two pictures' bytes (decoded here; throws ImageDecodeError when they are not images). */
export function hullModel(spec: MultiviewMesh, front: Uint8Array, side: Uint8Array): HullModel {
  return models(spec, () => buildHullModel(multiviewMeshSchema.parse(spec), decodeImage(front), decodeImage(side)));
}

interface View {
  seg: Segmentation;
  width: number;
  /** Subject box size in working pixels. */
  boxWidth: number;
  boxHeight: number;
}

function view(picture: RgbaImage): { view: View; factor: number } {
  const { image, factor } = downscale(picture, WORKING_SIDE);
  const seg = segmentSubject(image);
  const { box } = seg;
  return { view: { seg, width: image.width, boxWidth: box.x1 - box.x0, boxHeight: box.y1 - box.y0 }, factor };
}

/** Is the subject there at (t, s) of its box, t across from the box's left, s up from its bottom, both in [0, 1]? */
function inside(v: View, t: number, s: number): boolean {
  const { box, mask } = v.seg;
  const x = Math.min(box.x1 - 1, Math.max(box.x0, Math.floor(box.x0 + t * v.boxWidth)));
  const y = Math.min(box.y1 - 1, Math.max(box.y0, Math.floor(box.y1 - s * v.boxHeight)));
  return mask.data[y * mask.width + x] === 1;
}

export function buildHullModel(spec: MultiviewMesh, frontPicture: RgbaImage, sidePicture: RgbaImage): HullModel {
  const { view: front, factor } = view(frontPicture);
  const { view: side } = view(sidePicture);
  // Width and depth in units of the height.
  const widthRatio = front.boxWidth / front.boxHeight;
  const depthRatio = side.boxWidth / side.boxHeight;
  const budget = spec.quads ? spec.faces : Math.floor(spec.faces / 2);

  // The finest grid within the face budget (outer faces fall as the grid coarsens).
  let rows = Math.max(
    1,
    Math.min(MAX_ROWS, front.boxHeight, side.boxHeight, Math.floor(MAX_SIDE / Math.max(1, widthRatio, depthRatio))),
  );
  let carved = carve(front, side, rows, widthRatio, depthRatio);
  while (carved.faces > budget && rows > MIN_ROWS) {
    rows = Math.max(MIN_ROWS, Math.floor(rows * 0.85));
    carved = carve(front, side, rows, widthRatio, depthRatio);
  }
  const built = surface(carved);
  const mesh = spec.quads ? built : splitQuads(built);
  placeModel(mesh.positions, spec);
  mesh.normals = weldedNormals(mesh.positions, triangulate(mesh), mesh.weld);

  const crop = cropBox(front.seg, factor);
  const pixels = textureOf(frontPicture, crop);
  const color = meanColor(frontPicture, front.seg, factor);
  const baseColor = spec.texture === 'none' ? undefined : encodePng(pixels.width, pixels.height, pixels.data);
  return {
    mesh,
    material: { color, ...(baseColor !== undefined && { baseColor }) },
    ...(baseColor !== undefined && { texture: pixels }),
    color,
    grid: [carved.nx, carved.ny, carved.nz],
  };
}

interface Carved {
  nx: number;
  ny: number;
  nz: number;
  /** 1 where the voxel (x, y, z) is inside, index x + nx·(y + ny·z). */
  solid: Uint8Array;
  /** Outer faces (each a quad). */
  faces: number;
}

/** Voxels inside both extrusions; y counts up from the bottom, z from the back to the front. */
function carve(front: View, side: View, ny: number, widthRatio: number, depthRatio: number): Carved {
  const nx = Math.max(1, Math.round(ny * widthRatio));
  const nz = Math.max(1, Math.round(ny * depthRatio));
  const frontMask = new Uint8Array(nx * ny);
  const sideMask = new Uint8Array(nz * ny);
  for (let y = 0; y < ny; y++) {
    const s = (y + 0.5) / ny;
    for (let x = 0; x < nx; x++) frontMask[y * nx + x] = inside(front, (x + 0.5) / nx, s) ? 1 : 0;
    // The side picture's left is the front: voxel z (back to front) is read at its column from the right.
    for (let z = 0; z < nz; z++) sideMask[y * nz + z] = inside(side, (nz - z - 0.5) / nz, s) ? 1 : 0;
  }
  const solid = new Uint8Array(nx * ny * nz);
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++) {
      if (sideMask[y * nz + z] === 0) continue;
      for (let x = 0; x < nx; x++) if (frontMask[y * nx + x] === 1) solid[x + nx * (y + ny * z)] = 1;
    }
  let faces = 0;
  forEachOuterFace({ nx, ny, nz, solid }, () => faces++);
  return { nx, ny, nz, solid, faces };
}

/** A face of a voxel: the neighbour it faces, and its corners counter-clockwise seen from outside as offsets from the voxel's lowest corner. */
interface VoxelFace {
  toward: Vec3;
  corners: readonly Vec3[];
}

/** The corners of a unit square, counter-clockwise. */
const SQUARE: readonly (readonly [number, number])[] = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
];

/**
 * The six faces of a voxel, towards +X, -X, +Y, -Y, +Z, -Z. The face towards +axis lies at 1 on that axis, towards
 * -axis at 0; its corners walk the square over the two other axes (u the next one, v the one after, cyclically),
 * with u and v swapped on a - face (the mirror image): counter-clockwise seen from outside either way.
 */
export const VOXEL_FACES: readonly VoxelFace[] = [0, 1, 2].flatMap((axis) =>
  [1, -1].map((sign): VoxelFace => {
    const point = (along: number, u: number, v: number): Vec3 => {
      const p: Vec3 = [0, 0, 0];
      p[axis] = along;
      p[(axis + 1) % 3] = u;
      p[(axis + 2) % 3] = v;
      return p;
    };
    return {
      toward: point(sign, 0, 0),
      corners: SQUARE.map(([u, v]) => (sign > 0 ? point(1, u, v) : point(0, v, u))),
    };
  }),
);

/** Calls `visit` for each face of an inside voxel whose neighbour is outside (or off the grid), z, y, x ascending. */
function forEachOuterFace(
  grid: Omit<Carved, 'faces'>,
  visit: (x: number, y: number, z: number, face: VoxelFace) => void,
) {
  const { nx, ny, nz, solid } = grid;
  const at = (x: number, y: number, z: number) =>
    x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz && solid[x + nx * (y + ny * z)] === 1;
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        if (!at(x, y, z)) continue;
        for (const face of VOXEL_FACES) {
          const [dx, dy, dz] = face.toward;
          if (!at(x + dx, y + dy, z + dz)) visit(x, y, z, face);
        }
      }
}

/** The outer faces of the carved voxels as quads over shared grid corners; UVs project the front view. */
function surface(c: Carved): PolygonMesh {
  const { nx, ny, nz } = c;
  const ids = new Map<number, number>();
  const positions: number[] = [];
  const uvs: number[] = [];
  const polygons = new Uint32Array(c.faces * 4);
  const unit = 1 / ny; // the model is 1 high before it is placed in its box
  const corner = (x: number, y: number, z: number): number => {
    const key = x + (nx + 1) * (y + (ny + 1) * z);
    let id = ids.get(key);
    if (id === undefined) {
      id = positions.length / 3;
      ids.set(key, id);
      positions.push((x - nx / 2) * unit, y * unit, (z - nz / 2) * unit);
      uvs.push(x / nx, 1 - y / ny); // the front picture's box: u across, v down
    }
    return id;
  };
  let p = 0;
  forEachOuterFace(c, (x, y, z, face) => {
    for (const [ox, oy, oz] of face.corners) polygons[p++] = corner(x + ox, y + oy, z + oz);
  });
  const count = positions.length / 3;
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(count * 3),
    uvs: new Float32Array(uvs),
    polygons,
    sizes: new Uint8Array(c.faces).fill(4),
    weld: Uint32Array.from({ length: count }, (_, i) => i),
  };
}

function splitQuads(mesh: PolygonMesh): PolygonMesh {
  const polygons = triangulate(mesh);
  return { ...mesh, polygons, sizes: new Uint8Array(polygons.length / 3).fill(3) };
}

/** The front subject's box in the full picture's pixels. */
function cropBox(seg: Segmentation, factor: number) {
  const { box } = seg;
  return {
    x: box.x0 * factor,
    y: box.y0 * factor,
    width: (box.x1 - box.x0) * factor,
    height: (box.y1 - box.y0) * factor,
  };
}

/** The front picture's subject box resampled to a square texture (u across the box, v down it). */
function textureOf(picture: RgbaImage, crop: { x: number; y: number; width: number; height: number }): Texture {
  const side = TEXTURE_SIDE;
  const data = new Uint8Array(side * side * 4);
  const rgba = new Float32Array(4);
  for (let j = 0; j < side; j++)
    for (let i = 0; i < side; i++) {
      sampleRgba(picture, crop.x + ((i + 0.5) / side) * crop.width, crop.y + ((j + 0.5) / side) * crop.height, rgba);
      const o = (j * side + i) * 4;
      data[o] = rgba[0]!;
      data[o + 1] = rgba[1]!;
      data[o + 2] = rgba[2]!;
      data[o + 3] = 255;
    }
  return { width: side, height: side, data };
}

/** The front subject's mean colour (sRGB, [0, 1]). */
function meanColor(picture: RgbaImage, seg: Segmentation, factor: number): Vec3 {
  const { mask } = seg;
  const sum: [number, number, number] = [0, 0, 0];
  let n = 0;
  for (let y = 0; y < mask.height; y++)
    for (let x = 0; x < mask.width; x++) {
      if (mask.data[y * mask.width + x] !== 1) continue;
      const px = Math.min(picture.width - 1, x * factor);
      const py = Math.min(picture.height - 1, y * factor);
      const o = (py * picture.width + px) * 4;
      sum[0] += picture.data[o] ?? 0;
      sum[1] += picture.data[o + 1] ?? 0;
      sum[2] += picture.data[o + 2] ?? 0;
      n++;
    }
  return n === 0 ? [0.7, 0.7, 0.7] : [sum[0] / n / 255, sum[1] / n / 255, sum[2] / n / 255];
}
