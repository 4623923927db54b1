// The output files of a mesh made from two views (visual-hull.ts): GLB, OBJ with its MTL and texture, FBX, USDZ
// and renders, from the recipe's spec and the two stored pictures.
import { buildPolygonFbx } from '../outputs/fbx.ts';
import { buildPolygonMtl, buildPolygonObj, objTextureNames, type ObjTextureNames } from '../outputs/obj.ts';
import { buildPolygonGlb } from '../outputs/polygon-glb.ts';
import { encodePng } from '../../formats/png.ts';
import { buildPolygonUsdz } from '../usdz.ts';
import { renderModel } from './rasterize.ts';
import { hullModel, type HullModel, type MultiviewMesh } from './visual-hull.ts';

/** Reads a stored file by its key. */
export type ReadPicture = (key: string) => Buffer;

export function multiviewModel(spec: MultiviewMesh, read: ReadPicture): HullModel {
  return hullModel(spec, read(spec.front), read(spec.side));
}

/** The file names of the textures of `<name>.obj`, known without making the model. */
export function multiviewTextures(spec: MultiviewMesh, name: string): ObjTextureNames {
  return objTextureNames(name, spec.texture === 'none' ? {} : { baseColor: true });
}

export const multiviewGlb = (spec: MultiviewMesh, read: ReadPicture): Buffer => {
  const model = multiviewModel(spec, read);
  return buildPolygonGlb(model.mesh, model.material);
};

export const multiviewObj = (spec: MultiviewMesh, read: ReadPicture, name: string): string => {
  const model = multiviewModel(spec, read);
  return buildPolygonObj(model.mesh, model.color, name, multiviewTextures(spec, name)).obj;
};

export const multiviewMtl = (spec: MultiviewMesh, read: ReadPicture, name: string): string =>
  buildPolygonMtl(multiviewModel(spec, read).color, multiviewTextures(spec, name));

export function multiviewTexture(spec: MultiviewMesh, read: ReadPicture): Buffer {
  const png = multiviewModel(spec, read).material.baseColor;
  if (png === undefined) throw new Error('a mesh with texture_model none has no texture');
  return png;
}

export const multiviewFbx = (spec: MultiviewMesh, read: ReadPicture): Buffer => {
  const model = multiviewModel(spec, read);
  return buildPolygonFbx(model.mesh, model.material, 'texture.png');
};

export const multiviewUsdz = (spec: MultiviewMesh, read: ReadPicture): Buffer => {
  const model = multiviewModel(spec, read);
  return buildPolygonUsdz(model.mesh, model.material);
};

/** The model drawn on white, `size` pixels square, turned `yaw` radians about +Y and tilted `pitch`. */
export function multiviewRender(spec: MultiviewMesh, read: ReadPicture, size: number, yaw: number, pitch = 0): Buffer {
  const model = multiviewModel(spec, read);
  return encodePng(
    size,
    size,
    renderModel(model.mesh, model.texture, model.color, { width: size, height: size, yaw, pitch }),
  );
}
