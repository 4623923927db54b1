// The output files of a mesh made from a picture, from the recipe's mesh and the picture's bytes: GLB, OBJ with
// its MTL and textures (and the zip of them), FBX with its texture embedded, USDZ, and renders (spin views, previews).
import { buildPolygonFbx } from '../outputs/fbx.ts';
import { buildPolygonMtl, buildPolygonObj, objTextureNames, type ObjTextureNames } from '../outputs/obj.ts';
import { buildPolygonGlb } from '../outputs/polygon-glb.ts';
import { encodePng } from '../../formats/png.ts';
import { buildZip } from '../../formats/zip.ts';
import { buildPolygonUsdz } from '../usdz.ts';
import { pictureMeshSchema, type PictureMesh } from './mesh-options.ts';
import { materialOf, pictureModel, type PictureModel } from './picture-model.ts';
import { renderModel } from './rasterize.ts';

export type TextureMap = 'baseColor' | 'metallicRoughness' | 'normal';

/** The model of a recipe's mesh (checked against the schema: recipes are read back from the engine's state file). */
export function modelOf(mesh: PictureMesh, picture: Buffer): PictureModel {
  return pictureModel(pictureMeshSchema.parse(mesh), picture);
}

/** The texture maps a model of this mesh has, known without making it. */
export function mapsOf(mesh: PictureMesh): TextureMap[] {
  return mesh.texture === 'none'
    ? []
    : mesh.texture === 'baked'
      ? ['baseColor']
      : ['baseColor', 'metallicRoughness', 'normal'];
}

/** The file names of the textures of `<name>.obj`, known without making the model. */
export function objTexturesOf(mesh: PictureMesh, name: string): ObjTextureNames {
  return objTextureNames(name, Object.fromEntries(mapsOf(mesh).map((map) => [map, true])));
}

export function pictureGlb(mesh: PictureMesh, picture: Buffer): Buffer {
  const model = modelOf(mesh, picture);
  return buildPolygonGlb(model.mesh, materialOf(model));
}

const objTexts = new WeakMap<PictureModel, Map<string, { obj: string; mtl: string }>>();

/** The OBJ and MTL of `<name>.obj` (written once per model and name: the OBJ file and the zip share them). */
export function pictureObj(mesh: PictureMesh, picture: Buffer, name: string): { obj: string; mtl: string } {
  const model = modelOf(mesh, picture);
  let byName = objTexts.get(model);
  if (byName === undefined) objTexts.set(model, (byName = new Map()));
  let texts = byName.get(name);
  if (texts === undefined)
    byName.set(name, (texts = buildPolygonObj(model.mesh, model.color, name, objTexturesOf(mesh, name))));
  return texts;
}

/** The MTL of `<name>.obj` alone. */
export function pictureMtl(mesh: PictureMesh, picture: Buffer, name: string): string {
  return buildPolygonMtl(modelOf(mesh, picture).color, objTexturesOf(mesh, name));
}

export function pictureTexture(mesh: PictureMesh, picture: Buffer, map: TextureMap): Buffer {
  const png = materialOf(modelOf(mesh, picture))[map];
  if (png === undefined) throw new Error(`a mesh with texture_model ${mesh.texture} has no ${map} texture`);
  return png;
}

/** OBJ, MTL and textures in a zip: `<folder>/<name>.obj` and the files it names beside it. */
export function pictureObjZip(mesh: PictureMesh, picture: Buffer, name: string, folder: string | undefined): Buffer {
  const path = (file: string) => (folder === undefined ? file : `${folder}/${file}`);
  const { obj, mtl } = pictureObj(mesh, picture, name);
  const names = objTexturesOf(mesh, name);
  return buildZip([
    { name: path(`${name}.obj`), data: Buffer.from(obj) },
    { name: path(`${name}.mtl`), data: Buffer.from(mtl) },
    ...mapsOf(mesh).map((map) => ({ name: path(names[map]!), data: pictureTexture(mesh, picture, map) })),
  ]);
}

export function pictureFbx(mesh: PictureMesh, picture: Buffer): Buffer {
  const model = modelOf(mesh, picture);
  return buildPolygonFbx(model.mesh, materialOf(model), 'texture.png');
}

export function pictureUsdz(mesh: PictureMesh, picture: Buffer): Buffer {
  const model = modelOf(mesh, picture);
  return buildPolygonUsdz(model.mesh, materialOf(model));
}

/** The model drawn on white, `size` pixels square, turned by `yaw` (radians about +Y) and tilted by `pitch`. */
export function pictureRender(mesh: PictureMesh, picture: Buffer, size: number, yaw: number, pitch = 0): Buffer {
  const model = modelOf(mesh, picture);
  const texture = model.atlas && { width: model.atlas.width, height: model.atlas.height, data: model.atlas.baseColor };
  return encodePng(
    size,
    size,
    renderModel(model.mesh, texture, model.color, { width: size, height: size, yaw, pitch }),
  );
}
