// Output files as recipes: a session records what each of its files is made from (JSON, stored in the
// state), and the file store makes the bytes from the recipe the first time the file is needed.
import { buildAnimatedGlb, buildFbxBinary, buildGlb, buildObj, buildZip, renderPreviewImage, renderTexture, type MeshOptions } from './outputs/index.ts';
import { jointPositions, renderFigure } from './figure.ts';
import { buildUsdz } from './usdz.ts';

export type Recipe =
  | { type: 'glb'; mesh: MeshOptions; texture: boolean }
  /** A skinned humanoid rigged on the figure of `seed` (its render is `size` pixels), one clip per name. */
  | { type: 'animated-glb'; seed: string; size: number; clips: string[] }
  | { type: 'obj'; mesh: MeshOptions }
  /** OBJ + MTL + PNG texture. */
  | { type: 'obj-zip'; mesh: MeshOptions }
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
  'obj-zip': 'zip',
  fbx: 'fbx',
  usdz: 'usdz',
  image: 'png',
  figure: 'png',
};

export function output(owner: string, name: string, recipe: Exclude<Recipe, { type: 'input' }>): Output {
  return { key: `${owner}/${name}.${EXTENSION[recipe.type]}`, recipe };
}

export function makeArtifact(recipe: Recipe): Buffer {
  switch (recipe.type) {
    case 'glb':
      return buildGlb({ ...recipe.mesh, texture: recipe.texture });
    case 'animated-glb':
      return buildAnimatedGlb({ seed: recipe.seed, joints: jointPositions(recipe.seed, recipe.size), size: recipe.size, clips: recipe.clips });
    case 'obj':
      return Buffer.from(buildObj(recipe.mesh).obj);
    case 'obj-zip': {
      const { obj, mtl } = buildObj({ ...recipe.mesh, texture: true, name: 'model' });
      return buildZip([
        { name: 'model.obj', data: Buffer.from(obj) },
        { name: 'model.mtl', data: Buffer.from(mtl) },
        { name: 'model.png', data: renderTexture(recipe.mesh.seed) },
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
