// Automatic rigging of a humanoid mesh with no skeleton (an upload with no bones, a model the engine made): its
// body as solid voxels (voxels.ts), its joints from cross-sections and reaches inside them (body.ts), the
// engine's humanoid skeleton fitted there (skeleton.ts) and skin weights by bone heat (heat.ts). A procedural
// stand-in for the service's AI rigging: what is not a humanoid standing upright is refused (NotHumanoid).
import type { CharacterModel } from '../../formats/character.ts';
import { type Body, findBody } from './body.ts';
import { heatWeights } from './heat.ts';
import { fitSkeleton } from './skeleton.ts';
import { voxelize } from './voxels.ts';

export { NotHumanoid } from './body.ts';

export interface Rigged {
  /** The mesh as it was, with the fitted skeleton and its skin. */
  model: CharacterModel;
  /** The joints found. */
  body: Body;
}

/** Rigs `model` (its bones and skin are replaced); throws NotHumanoid with why when it is not a standing humanoid. */
export function autoRig(model: CharacterModel): Rigged {
  const triangles = model.parts.flatMap((p) => p.indices);
  const voxels = voxelize(model.positions, triangles);
  const body = findBody(voxels, model.positions);
  const fitted = fitSkeleton(body);
  const skin = heatWeights(model.positions, triangles, fitted, voxels);
  const bones = fitted.map(({ name, parent, t, r }) => ({ name, parent, t, r }));
  return { model: { ...model, bones, joints: skin.joints, weights: skin.weights }, body };
}
