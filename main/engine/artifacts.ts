// Output files as recipes: a session records what each of its files is made from (JSON, stored in the
// state), and the file store makes the bytes from the recipe the first time the file is needed.
import {
  buildAnimatedGlb,
  buildFbxBinary,
  buildGlb,
  buildObj,
  buildZip,
  renderPreviewImage,
  renderTexture,
  type MeshOptions,
} from './outputs/index.ts';
import { jointPositions, renderFigure } from './figure.ts';
import { characterFbx, characterGlb, characterUsdz } from './character/outputs.ts';
import {
  mapsOf,
  objTexturesOf,
  pictureFbx,
  pictureGlb,
  pictureMtl,
  pictureObj,
  pictureObjZip,
  pictureRender,
  pictureTexture,
  pictureUsdz,
  type TextureMap,
} from './generate/picture-outputs.ts';
import type { PictureMesh } from './generate/mesh-options.ts';
import {
  multiviewFbx,
  multiviewGlb,
  multiviewMtl,
  multiviewObj,
  multiviewRender,
  multiviewTexture,
  multiviewTextures,
  multiviewUsdz,
} from './generate/multiview-outputs.ts';
import type { MultiviewMesh } from './generate/visual-hull.ts';
import { modelCache } from './generate/model-cache.ts';
import { segmentedPicture } from './generate/segmented.ts';
import { paintPrompt } from './picture/paint.ts';
import { paletteOfZip } from './picture/palette.ts';
import { buildUsdz } from './usdz.ts';

export type Recipe =
  | { type: 'glb'; mesh: MeshOptions; texture: boolean }
  /** A skinned humanoid rigged on the figure of `seed` (its render is `size` pixels), one clip per name. */
  | { type: 'animated-glb'; seed: string; size: number; clips: string[] }
  /** An uploaded character (its stored JSON, `character`) skinned to its own skeleton, one clip per name (character/). */
  | { type: 'character-glb'; character: string; clips: string[] }
  /** The uploaded character as binary FBX (mesh, skin, every bone), one take per clip name, as the service delivers it. */
  | { type: 'character-fbx'; character: string; clips: string[] }
  /** The uploaded character's mesh as a static USDZ. */
  | { type: 'character-usdz'; character: string }
  /**
   * An OBJ. With `companions` it is `mesh.obj` in a folder of its own, naming `mesh.mtl` (and with a texture
   * `mesh.png`) beside it: those are served from the same folder (see companionsOf), so a client that resolves
   * `mtllib` relative to the OBJ's URL finds them. Without, it names a `model.mtl` that is not served (older records).
   */
  | { type: 'obj'; mesh: MeshOptions; companions?: { texture: boolean } }
  /** The material library of an OBJ in a folder (its base colour, and `map_Kd <name>.png` with a texture). */
  | { type: 'mtl'; mesh: MeshOptions; name: string; texture: boolean }
  /** The base-colour texture of a mesh (the one its GLB embeds). */
  | { type: 'texture'; seed: string }
  /** OBJ + MTL + PNG texture: `<folder>/mesh.obj`, `<folder>/mesh.mtl`, `<folder>/mesh.png` (flat `model.*` without a folder). */
  | { type: 'obj-zip'; mesh: MeshOptions; folder?: string }
  /** The seeded mesh as FBX; with `texture`, its material embeds the same texture as the GLB's (older recipes have none). */
  | { type: 'fbx'; mesh: MeshOptions; texture?: boolean }
  | { type: 'usdz'; mesh: MeshOptions }
  | { type: 'image'; seed: string; size: number }
  | { type: 'figure'; seed: string; size: number }
  /**
   * A text-to-image picture drawn from the prompt's words (picture/), moved towards a style's palette (RGB in
   * [0, 1]): the palette of the images of the stored style zip `styleZip` (a file key; read here, on the worker
   * that makes the picture, as decoding up to 32 images is seconds of CPU), else `palette` (recipes made before).
   */
  | { type: 'prompt-image'; prompt: string; palette: [number, number, number][]; size: number; styleZip?: string }
  // A mesh made from a picture (generate/): `model` says which (the stored picture's key, faces, topology, texture…).
  | { type: 'picture-glb'; model: PictureMesh }
  /** `mesh.obj` in a folder of its own, with `mesh.mtl` and its textures served beside it (see companionsOf). */
  | { type: 'picture-obj'; model: PictureMesh }
  | { type: 'picture-mtl'; model: PictureMesh }
  /** The base colour, or for PBR the metallic-roughness or normal texture. */
  | { type: 'picture-texture'; model: PictureMesh; map: TextureMap }
  /** `<folder>/mesh.obj`, `mesh.mtl` and the textures it names. */
  | { type: 'picture-obj-zip'; model: PictureMesh; folder: string }
  | { type: 'picture-fbx'; model: PictureMesh }
  | { type: 'picture-usdz'; model: PictureMesh }
  /** The model drawn on white, `size` pixels square, turned `yaw` radians about +Y (spin views: quarter turns) and tilted `pitch`. */
  | { type: 'render'; model: PictureMesh; size: number; yaw: number; pitch?: number }
  // A mesh made from a front and a side picture (multiview_to_3d, generate/visual-hull.ts).
  | { type: 'multiview-glb'; model: MultiviewMesh }
  /** `mesh.obj` in a folder of its own, with `mesh.mtl` and its texture served beside it (see companionsOf). */
  | { type: 'multiview-obj'; model: MultiviewMesh }
  | { type: 'multiview-mtl'; model: MultiviewMesh }
  | { type: 'multiview-texture'; model: MultiviewMesh }
  | { type: 'multiview-fbx'; model: MultiviewMesh }
  | { type: 'multiview-usdz'; model: MultiviewMesh }
  | { type: 'multiview-render'; model: MultiviewMesh; size: number; yaw: number; pitch?: number }
  /** The stored picture `picture` with everything but its subject transparent (`segmented_image_url`). */
  | { type: 'segmented'; picture: string }
  /** Bytes the client sent (an uploaded mesh, a data-URI image): written on arrival, never remade. */
  | { type: 'input' }
  /** Bytes a processor wrote while its session ran (a retopology's OBJ folder and render): never remade. */
  | { type: 'made' };

/** A file of a session: its key under the files folder (`<owner>/<name>.<ext>`) and its recipe. */
export interface Output {
  key: string;
  recipe: Recipe;
}

const EXTENSION: Record<Exclude<Recipe['type'], 'input' | 'made'>, string> = {
  glb: 'glb',
  'animated-glb': 'glb',
  'character-glb': 'glb',
  'character-fbx': 'fbx',
  'character-usdz': 'usdz',
  obj: 'obj',
  mtl: 'mtl',
  texture: 'png',
  'obj-zip': 'zip',
  fbx: 'fbx',
  usdz: 'usdz',
  image: 'png',
  figure: 'png',
  'prompt-image': 'png',
  'picture-glb': 'glb',
  'picture-obj': 'obj',
  'picture-mtl': 'mtl',
  'picture-texture': 'png',
  'picture-obj-zip': 'zip',
  'picture-fbx': 'fbx',
  'picture-usdz': 'usdz',
  render: 'png',
  'multiview-glb': 'glb',
  'multiview-obj': 'obj',
  'multiview-mtl': 'mtl',
  'multiview-texture': 'png',
  'multiview-fbx': 'fbx',
  'multiview-usdz': 'usdz',
  'multiview-render': 'png',
  segmented: 'png',
};

export function output(
  owner: string,
  name: string,
  recipe: Exclude<Recipe, { type: 'input' } | { type: 'made' }>,
): Output {
  return { key: `${owner}/${name}.${EXTENSION[recipe.type]}`, recipe };
}

/** Base name of the files of an OBJ in a folder of its own. */
const OBJ_FOLDER_NAME = 'mesh';

/** An OBJ in the folder `<owner>/<name>/`, with its MTL (and texture) served beside it. */
export function objInFolder(owner: string, name: string, mesh: MeshOptions, texture: boolean): Output {
  return output(owner, `${name}/${OBJ_FOLDER_NAME}`, { type: 'obj', mesh, companions: { texture } });
}

/** The OBJ of a mesh made from a picture, in the folder `<owner>/<name>/`, with its MTL and textures served beside it. */
export function pictureObjInFolder(owner: string, name: string, model: PictureMesh): Output {
  return output(owner, `${name}/${OBJ_FOLDER_NAME}`, { type: 'picture-obj', model });
}

/** The files an output names and that are served beside it: the MTL and texture of an OBJ in a folder. */
export function companionsOf(file: Output): Output[] {
  const { recipe } = file;
  if (recipe.type === 'multiview-obj') {
    const folder = file.key.slice(0, file.key.lastIndexOf('/'));
    const texture = multiviewTextures(recipe.model, OBJ_FOLDER_NAME).baseColor;
    return [
      { key: `${folder}/${OBJ_FOLDER_NAME}.mtl`, recipe: { type: 'multiview-mtl', model: recipe.model } },
      ...(texture === undefined
        ? []
        : [{ key: `${folder}/${texture}`, recipe: { type: 'multiview-texture' as const, model: recipe.model } }]),
    ];
  }
  if (recipe.type === 'picture-obj') {
    const folder = file.key.slice(0, file.key.lastIndexOf('/'));
    const names = objTexturesOf(recipe.model, OBJ_FOLDER_NAME);
    return [
      { key: `${folder}/${OBJ_FOLDER_NAME}.mtl`, recipe: { type: 'picture-mtl', model: recipe.model } },
      ...mapsOf(recipe.model).map(
        (map): Output => ({
          key: `${folder}/${names[map]}`,
          recipe: { type: 'picture-texture', model: recipe.model, map },
        }),
      ),
    ];
  }
  if (recipe.type !== 'obj' || recipe.companions === undefined) return [];
  const folder = file.key.slice(0, file.key.lastIndexOf('/'));
  const { texture } = recipe.companions;
  const mtl: Output = {
    key: `${folder}/${OBJ_FOLDER_NAME}.mtl`,
    recipe: { type: 'mtl', mesh: recipe.mesh, name: OBJ_FOLDER_NAME, texture },
  };
  return texture
    ? [mtl, { key: `${folder}/${OBJ_FOLDER_NAME}.png`, recipe: { type: 'texture', seed: recipe.mesh.seed } }]
    : [mtl];
}

/** Reads a stored file by its key (a session's input picture), for the outputs made from it. */
export type ReadStored = (key: string) => Buffer;

const noStore: ReadStored = (key) => {
  throw new Error(`the output needs the stored file ${key}, but no file store was given`);
};

/** The bytes of an output; `read` gives the stored inputs that meshes made from a picture need. */
export function makeArtifact(recipe: Recipe, read: ReadStored = noStore): Buffer {
  switch (recipe.type) {
    case 'glb':
      return buildGlb({ ...recipe.mesh, texture: recipe.texture });
    case 'animated-glb':
      return buildAnimatedGlb({
        seed: recipe.seed,
        joints: jointPositions(recipe.seed, recipe.size),
        size: recipe.size,
        clips: recipe.clips,
      });
    case 'character-glb':
      return characterGlb(read(recipe.character), recipe.clips);
    case 'character-fbx':
      return characterFbx(read(recipe.character), recipe.clips);
    case 'character-usdz':
      return characterUsdz(read(recipe.character));
    case 'obj':
      return Buffer.from(buildObj(recipe.companions ? { ...recipe.mesh, name: OBJ_FOLDER_NAME } : recipe.mesh).obj);
    case 'mtl':
      return Buffer.from(buildObj({ ...recipe.mesh, name: recipe.name, texture: recipe.texture }).mtl);
    case 'texture':
      return renderTexture(recipe.seed);
    case 'obj-zip': {
      // Older scripts open `<session code>/mesh.obj` from the zip, as the service packs it.
      const name = recipe.folder === undefined ? 'model' : OBJ_FOLDER_NAME;
      const path = (file: string) => (recipe.folder === undefined ? file : `${recipe.folder}/${file}`);
      const { obj, mtl } = buildObj({ ...recipe.mesh, texture: true, name });
      return buildZip([
        { name: path(`${name}.obj`), data: Buffer.from(obj) },
        { name: path(`${name}.mtl`), data: Buffer.from(mtl) },
        { name: path(`${name}.png`), data: renderTexture(recipe.mesh.seed) },
      ]);
    }
    case 'fbx':
      return buildFbxBinary(recipe.mesh.seed, recipe.mesh, recipe.texture === true);
    case 'usdz':
      return buildUsdz(recipe.mesh);
    case 'image':
      return renderPreviewImage(recipe.seed, recipe.size, recipe.size);
    case 'prompt-image':
      return paintPrompt(
        recipe.prompt,
        recipe.styleZip === undefined ? recipe.palette : paletteOfStoredZip(read, recipe.styleZip),
        recipe.size,
      );
    case 'figure':
      return renderFigure(recipe.seed, recipe.size);
    case 'picture-glb':
      return pictureGlb(recipe.model, read(recipe.model.picture));
    case 'picture-obj':
      return Buffer.from(pictureObj(recipe.model, read(recipe.model.picture), OBJ_FOLDER_NAME).obj);
    case 'picture-mtl':
      return Buffer.from(pictureMtl(recipe.model, read(recipe.model.picture), OBJ_FOLDER_NAME));
    case 'picture-texture':
      return pictureTexture(recipe.model, read(recipe.model.picture), recipe.map);
    case 'picture-obj-zip':
      // Older scripts open `<session code>/mesh.obj` from the zip, as the service packs it.
      return pictureObjZip(recipe.model, read(recipe.model.picture), OBJ_FOLDER_NAME, recipe.folder);
    case 'picture-fbx':
      return pictureFbx(recipe.model, read(recipe.model.picture));
    case 'picture-usdz':
      return pictureUsdz(recipe.model, read(recipe.model.picture));
    case 'render':
      return pictureRender(recipe.model, read(recipe.model.picture), recipe.size, recipe.yaw, recipe.pitch);
    case 'multiview-glb':
      return multiviewGlb(recipe.model, read);
    case 'multiview-obj':
      return Buffer.from(multiviewObj(recipe.model, read, OBJ_FOLDER_NAME));
    case 'multiview-mtl':
      return Buffer.from(multiviewMtl(recipe.model, read, OBJ_FOLDER_NAME));
    case 'multiview-texture':
      return multiviewTexture(recipe.model, read);
    case 'multiview-fbx':
      return multiviewFbx(recipe.model, read);
    case 'multiview-usdz':
      return multiviewUsdz(recipe.model, read);
    case 'multiview-render':
      return multiviewRender(recipe.model, read, recipe.size, recipe.yaw, recipe.pitch);
    case 'segmented':
      return segmentedPicture(read(recipe.picture));
    case 'input':
      throw new Error('an input file cannot be remade: it was not stored when it arrived');
    case 'made':
      throw new Error('this file was written when its session ran and is not on disk any more: run the session again');
  }
}

/** How many styles' palettes a thread keeps. */
const MAX_PALETTES = 64;
/** Palettes read on this thread, by the stored zip's key (a style's zip never changes). */
const palettes = modelCache<string, [number, number, number][]>(MAX_PALETTES);

/**
 * The palette of a stored style zip, read once per thread (the pictures of a style go to the same worker: its
 * affinity); none when it is not stored (any more) or is not a zip the palette reads (not remembered).
 */
function paletteOfStoredZip(read: (key: string) => Buffer, key: string): [number, number, number][] {
  try {
    return palettes(key, () => paletteOfZip(read(key)));
  } catch {
    return [];
  }
}
