// A 3D model from a picture: decode, find the subject, tessellate its silhouette within the face budget, inflate
// it into a closed relief, place it in its box, and paint it with the picture (see the modules named below).
// The same request gives the same model; the last few are kept in memory, since every output file of a session
// (GLB, OBJ and its texture, FBX, USDZ, zip, spin views) is made from the same model.
import { encodePng } from '../../formats/png.ts';
import { type MeshMaterial, type PolygonMesh, triangulate, weldedNormals } from '../outputs/polygon-mesh.ts';
import { decodeImage, type RgbaImage } from '../../images/decode-image.ts';
import { signedDistance } from './distance.ts';
import { placeModel, type PictureMesh } from './mesh-options.ts';
import { modelCache } from './model-cache.ts';
import { budgetTextureSide, textureSideFor } from '../../../shared/picture-detail.ts';
import { countFaces, type Box, tessellate } from './outline.ts';
import { downscale, type Field } from './raster.ts';
import { buildRelief, type Crop } from './relief-mesh.ts';
import { segmentSubject, type Segmentation } from './segment.ts';
import { buildAtlas, type TextureAtlas } from './uv-texture.ts';

export interface PictureModel {
  mesh: PolygonMesh;
  /** Absent for texture_model none. */
  atlas?: TextureAtlas;
  /** The subject's average colour (sRGB, [0, 1]): the material colour without a texture. */
  color: [number, number, number];
  segmentation: Pick<Segmentation, 'method' | 'box' | 'area'> & { width: number; height: number; factor: number };
}

const materials = new WeakMap<PictureModel, MeshMaterial>();

/** The model's material with its textures as PNG (encoded once per model). */
export function materialOf(model: PictureModel): MeshMaterial {
  let material = materials.get(model);
  if (material === undefined) {
    const { atlas } = model;
    const png = (data: Uint8Array | undefined) =>
      atlas !== undefined && data !== undefined ? encodePng(atlas.width, atlas.height, data) : undefined;
    const baseColor = png(atlas?.baseColor);
    const metallicRoughness = png(atlas?.metallicRoughness);
    const normal = png(atlas?.normal);
    material = {
      color: model.color,
      ...(baseColor && { baseColor }),
      ...(metallicRoughness && { metallicRoughness }),
      ...(normal && { normal }),
    };
    materials.set(model, material);
  }
  return material;
}

/**
 * The silhouette is found on the picture shrunk to at most this many pixels wide and high: finer than any grid a
 * face budget asks for, and it keeps a 1024-pixel picture within its time (the texture still samples the full picture).
 */
const WORKING_SIDE = 640;
const models = modelCache<PictureMesh, PictureModel>();

/** The model of `spec` from the picture's bytes (decoded here; throws ImageDecodeError when they are not an image). */
export function pictureModel(spec: PictureMesh, bytes: Uint8Array): PictureModel {
  return models(spec, () => buildPictureModel(spec, decodeImage(bytes)));
}

export function buildPictureModel(spec: PictureMesh, picture: RgbaImage): PictureModel {
  const { image: working, factor } = downscale(picture, WORKING_SIDE);
  const segmentation = segmentSubject(working);
  const sdf = signedDistance(segmentation.mask);
  const { box } = segmentation;
  // Both sides share the budget; with triangles every quad of the tessellation becomes two.
  const cell = cellForBudget(sdf, box, segmentation.area, Math.floor(spec.faces / 2), !spec.quads);
  const tessellation = tessellate(sdf, box, cell);
  const crop = squareAround(box);
  const relief = buildRelief(tessellation, crop);
  const mesh = spec.quads ? relief : splitQuads(relief);
  placeModel(mesh.positions, spec);
  mesh.normals = weldedNormals(mesh.positions, triangulate(mesh), mesh.weld);
  const atlas =
    spec.texture === 'none'
      ? undefined
      : buildAtlas(
          picture,
          segmentation.mask,
          factor,
          crop,
          // The budget's size, but no larger than the picture can fill (shared/picture-detail.ts).
          textureSideFor(budgetTextureSide(spec.faces), picture),
          spec.texture === 'pbr',
        );
  const color = atlas?.meanColor ?? buildAtlas(picture, segmentation.mask, factor, crop, 64, false).meanColor;
  return {
    mesh,
    ...(atlas !== undefined && { atlas }),
    color,
    segmentation: {
      method: segmentation.method,
      box,
      area: segmentation.area,
      width: working.width,
      height: working.height,
      factor,
    },
  };
}

/**
 * The smallest cell (finest grid) whose tessellation of one side stays within `budget` faces: a first guess from
 * the subject's area, refined by counting (the count falls as cells grow, with small wobbles).
 */
function cellForBudget(sdf: Field, box: Box, area: number, budget: number, triangles: boolean): number {
  const perCell = triangles ? 2 : 1;
  let cell = Math.max(1e-3, Math.sqrt((area * perCell) / budget));
  // Grow until within budget, then shrink while still within it.
  for (let i = 0; i < 60 && countFaces(sdf, box, cell, triangles) > budget; i++) cell *= 1.04;
  for (let i = 0; i < 60; i++) {
    const finer = cell / 1.02;
    if (countFaces(sdf, box, finer, triangles) > budget) break;
    cell = finer;
  }
  return cell;
}

/** The square around the subject's box (a little margin), which each half of the texture atlas shows. */
function squareAround(box: Box): Crop {
  const size = Math.max(box.x1 - box.x0, box.y1 - box.y0) * 1.04 + 2;
  return { x: (box.x0 + box.x1) / 2 - size / 2, y: (box.y0 + box.y1) / 2 - size / 2, size };
}

/** The same mesh with every quad split into two triangles (along its shorter diagonal). */
function splitQuads(mesh: PolygonMesh): PolygonMesh {
  const polygons = triangulate(mesh);
  return { ...mesh, polygons, sizes: new Uint8Array(polygons.length / 3).fill(3) };
}
