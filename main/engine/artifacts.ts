// Output files as recipes: a session records what each of its files is made from (JSON, stored in the
// state), and the file store makes the bytes from the recipe the first time the file is needed.
import { buildAnimatedGlb, buildFbxBinary, buildGlb, buildObj, buildZip, renderPreviewImage, renderTexture, type MeshOptions } from './outputs/index.ts';
import { jointPositions, renderFigure } from './figure.ts';
import { buildUsdz } from './usdz.ts';

export type Recipe =
  | { type: 'glb'; mesh: MeshOptions; texture: boolean }
  /** A skinned humanoid rigged on the figure of `seed` (its render is `size` pixels), one clip per name. */
  | { type: 'animated-glb'; seed: string; size: number; clips: string[] }
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
  | { type: 'fbx'; mesh: MeshOptions }
  | { type: 'usdz'; mesh: MeshOptions }
  | { type: 'image'; seed: string; size: number }
  | { type: 'figure'; seed: string; size: number }
  /** Bytes the client sent (an uploaded mesh, a data-URI image): written on arrival, never remade. */
  | { type: 'input' };

/** A file of a session: its key under the files folder (`<owner>/<name>.<ext>`) and its recipe. */
export interface Output {
  key: string;
  recipe: Recipe;
}

const EXTENSION: Record<Exclude<Recipe['type'], 'input'>, string> = {
  glb: 'glb',
  'animated-glb': 'glb',
  obj: 'obj',
  mtl: 'mtl',
  texture: 'png',
  'obj-zip': 'zip',
  fbx: 'fbx',
  usdz: 'usdz',
  image: 'png',
  figure: 'png',
};

export function output(owner: string, name: string, recipe: Exclude<Recipe, { type: 'input' }>): Output {
  return { key: `${owner}/${name}.${EXTENSION[recipe.type]}`, recipe };
}

/** Base name of the files of an OBJ in a folder of its own. */
const OBJ_FOLDER_NAME = 'mesh';

/** An OBJ in the folder `<owner>/<name>/`, with its MTL (and texture) served beside it. */
export function objInFolder(owner: string, name: string, mesh: MeshOptions, texture: boolean): Output {
  return output(owner, `${name}/${OBJ_FOLDER_NAME}`, { type: 'obj', mesh, companions: { texture } });
}

/** The files an output names and that are served beside it: the MTL and texture of an OBJ in a folder. */
export function companionsOf(file: Output): Output[] {
  const { recipe } = file;
  if (recipe.type !== 'obj' || recipe.companions === undefined) return [];
  const folder = file.key.slice(0, file.key.lastIndexOf('/'));
  const { texture } = recipe.companions;
  const mtl: Output = { key: `${folder}/${OBJ_FOLDER_NAME}.mtl`, recipe: { type: 'mtl', mesh: recipe.mesh, name: OBJ_FOLDER_NAME, texture } };
  return texture ? [mtl, { key: `${folder}/${OBJ_FOLDER_NAME}.png`, recipe: { type: 'texture', seed: recipe.mesh.seed } }] : [mtl];
}

export function makeArtifact(recipe: Recipe): Buffer {
  switch (recipe.type) {
    case 'glb':
      return buildGlb({ ...recipe.mesh, texture: recipe.texture });
    case 'animated-glb':
      return buildAnimatedGlb({ seed: recipe.seed, joints: jointPositions(recipe.seed, recipe.size), size: recipe.size, clips: recipe.clips });
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
      return buildFbxBinary(recipe.mesh.seed, recipe.mesh);
    case 'usdz':
      return buildUsdz(recipe.mesh);
    case 'image':
      return renderPreviewImage(recipe.seed, recipe.size, recipe.size);
    case 'figure':
      return renderFigure(recipe.seed, recipe.size);
    case 'input':
      throw new Error('an input file cannot be remade: it was not stored when it arrived');
  }
}
