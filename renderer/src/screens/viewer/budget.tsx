// The viewer's game-ready view (#31 item 7): the budget verdict beside the stats (the model's triangles and
// largest texture against the profile chosen in Settings, with the user's edits), and the texel-density checker's
// tiling: squares of SQUARE_M metres where the model's texture reaches the profile's px/m, so squares of equal size
// mean equal density and larger squares fewer pixels per metre.
import type { ModelStats, TextureInfo } from '../../../viewer/index.ts';
import { appState } from '../../app-state.ts';
import { checkProfileOf, profileWithEdits } from '../../profiles.ts';
import { useStore } from '../../store.ts';

/** The side of one checker square, in metres, on a surface at the profile's texel density. */
export const SQUARE_M = 0.1;
/** A model without textures: the checker assumes a texture of this size (and the hint says so). */
const NOMINAL_TEXTURE = 1024;

export function useViewerProfile() {
  const { settings } = useStore(appState);
  return profileWithEdits(settings, checkProfileOf(settings));
}

/** The largest side of the model's textures, or undefined without any. */
const largestSide = (textures: TextureInfo[] | undefined) =>
  textures && textures.length > 0 ? Math.max(...textures.map((t) => Math.max(t.width, t.height))) : undefined;

/** Checker squares across the UV square: the texture's pixels ÷ the pixels one square holds at the target. */
export function texelSquares(textures: TextureInfo[] | undefined, texelDensity: number): number {
  return (largestSide(textures) ?? NOMINAL_TEXTURE) / (texelDensity * SQUARE_M);
}

/** What the texel checker shows, in words (under the view buttons while it is on). */
export function TexelHint({ textures }: { textures: TextureInfo[] | undefined }) {
  const profile = useViewerProfile();
  if (!profile) return null;
  const side = largestSide(textures);
  return (
    <p class="hint" data-texel-squares={texelSquares(textures, profile.texelDensity).toFixed(2)}>
      Texel density against {profile.label} ({profile.texelDensity} px/m): where the model meets it, each square is{' '}
      {SQUARE_M * 100} cm; larger squares mean fewer pixels per metre, smaller ones more.
      {side === undefined && ` The model has no texture: a ${NOMINAL_TEXTURE} px one is assumed.`}
    </p>
  );
}

/** The budget rows of the stats: triangles and the largest texture against the profile. */
export function BudgetVerdict({ stats, textures }: { stats: ModelStats; textures: TextureInfo[] | undefined }) {
  const profile = useViewerProfile();
  if (!profile) return null;
  const side = largestSide(textures);
  const over = [
    stats.triangles > profile.triangleBudget &&
      `${stats.triangles.toLocaleString('en')} triangles, budget ${profile.triangleBudget.toLocaleString('en')}`,
    side !== undefined &&
      side > profile.maxTextureSize &&
      `textures up to ${side} px, largest ${profile.maxTextureSize}`,
  ].filter((x): x is string => typeof x === 'string');
  return (
    <>
      <dt>Budget ({profile.label})</dt>
      <dd class="viewer-budget" data-stat="budget" data-verdict={over.length > 0 ? 'over' : 'within'}>
        {over.length > 0 ? (
          <span class="fit-badge fit-fails">Over: {over.join('; ')}</span>
        ) : (
          <span class="fit-badge fit-fits">
            Within: {stats.triangles.toLocaleString('en')} of {profile.triangleBudget.toLocaleString('en')} triangles
            {side !== undefined && `, textures ≤ ${profile.maxTextureSize} px`}
          </span>
        )}
      </dd>
    </>
  );
}
