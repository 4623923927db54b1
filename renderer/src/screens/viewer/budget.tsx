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
    stats.triangles > profile.triangleBudget && 'triangles',
    side !== undefined && side > profile.maxTextureSize && 'textures',
  ].filter((x): x is string => typeof x === 'string');
  const detail =
    `${stats.triangles.toLocaleString('en')} of ${profile.triangleBudget.toLocaleString('en')} triangles` +
    `${side === undefined ? '' : `, textures up to ${side} of ${profile.maxTextureSize} px`} for ${profile.label}`;
  return (
    <>
      <dt>Budget</dt>
      <dd class="viewer-budget" data-stat="budget" data-verdict={over.length > 0 ? 'over' : 'within'} title={detail}>
        <span class={`fit-badge ${over.length > 0 ? 'fit-fails' : 'fit-fits'}`}>
          {over.length > 0 ? `Over: ${over.join(', ')}` : 'Within'}
        </span>
        <span class="visually-hidden"> ({detail})</span>
      </dd>
    </>
  );
}
