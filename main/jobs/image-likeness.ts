// Is this the same picture? First the exact bytes (sha256); where a service re-encodes what it was sent
// (recompressed, metadata stripped, JPEG), a perceptual hash: the picture reduced to brightness, then a
// difference hash (dHash) of 128 gradient signs, horizontal (9 × 8) and vertical (8 × 9). Gradients too
// faint to survive re-encoding are left out; a picture with too few strong ones cannot be judged.
import { createHash } from 'node:crypto';
import { decodeImage, imageFormatOf } from '../images/decode-image.ts';
import { lumaOf, type DecodedLuma, type LumaGrid } from './luma-grid.ts';

export interface ImageFingerprint {
  sha256: string;
  /** Absent when the picture could not be decoded; `reason` says why. */
  perceptual?: Perceptual[];
  reason?: string;
}

interface Perceptual {
  /** Brightness differences of neighbouring cells: 64 horizontal, then 64 vertical (0–255 scale). */
  gradients: Float64Array;
  mean: number;
  aspect: number;
}

export type Likeness =
  | { verdict: 'same-file' }
  | { verdict: 'same-picture'; differing: number; compared: number }
  | { verdict: 'different'; why: string }
  | { verdict: 'unsure'; why: string };

/** A gradient at least this strong (of 255) in either picture takes part in the comparison. */
const STRONG = 3;
/** Below this, a gradient counts as flat. */
const FLAT = 1;
/** Fewer strong gradients than this: the picture is too plain to be recognised by its look. */
const MIN_COMPARED = 16;
const SAME_AT_MOST = 0.1;
const DIFFERENT_AT_LEAST = 0.3;
const SAME_MEAN_WITHIN = 16;
const SAME_ASPECT_WITHIN = 0.05;

export function fingerprint(bytes: Buffer): ImageFingerprint {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  let decoded: DecodedLuma;
  try {
    const format = imageFormatOf(bytes);
    if (format === 'png' || format === 'jpeg' || format === 'gif') decoded = lumaOf(decodeImage(bytes));
    else
      return {
        sha256,
        reason: `${format === 'webp' ? 'WebP pictures' : 'pictures of an unknown format'} cannot be compared by their look here (only PNG, JPEG and GIF can)`,
      };
  } catch (error) {
    return { sha256, reason: `the picture could not be decoded: ${(error as Error).message}` };
  }
  const aspect = decoded.width / decoded.height;
  return { sha256, perceptual: decoded.grids.map((grid) => perceptualOf(grid, aspect)) };
}

export function compareImages(a: ImageFingerprint, b: ImageFingerprint): Likeness {
  if (a.sha256 === b.sha256) return { verdict: 'same-file' };
  if (!a.perceptual || !b.perceptual) return { verdict: 'unsure', why: (a.reason ?? b.reason)! };
  if (Math.abs(Math.log(a.perceptual[0]!.aspect / b.perceptual[0]!.aspect)) > SAME_ASPECT_WITHIN) {
    return { verdict: 'unsure', why: 'the pictures have different proportions (cropped or padded?)' };
  }
  // Transparent pictures come in two flattenings (over white, over black): the closest pair decides.
  let best: { differing: number; compared: number; meanGap: number } | undefined;
  for (const pa of a.perceptual) {
    for (const pb of b.perceptual) {
      const score = { ...gradientDistance(pa, pb), meanGap: Math.abs(pa.mean - pb.mean) };
      if (!best || rank(score) < rank(best)) best = score;
    }
  }
  const { differing, compared, meanGap } = best!;
  if (compared < MIN_COMPARED)
    return { verdict: 'unsure', why: 'the picture is too plain to be recognised by its look' };
  const share = differing / compared;
  if (share <= SAME_AT_MOST && meanGap <= SAME_MEAN_WITHIN) return { verdict: 'same-picture', differing, compared };
  if (share >= DIFFERENT_AT_LEAST)
    return { verdict: 'different', why: `${differing} of ${compared} brightness gradients differ` };
  return {
    verdict: 'unsure',
    why: `the pictures look alike but not the same (${differing} of ${compared} brightness gradients differ)`,
  };
}

const rank = (s: { differing: number; compared: number }) => (s.compared === 0 ? 1 : s.differing / s.compared);

function gradientDistance(a: Perceptual, b: Perceptual): { differing: number; compared: number } {
  let differing = 0;
  let compared = 0;
  for (let i = 0; i < a.gradients.length; i++) {
    const ga = a.gradients[i]!;
    const gb = b.gradients[i]!;
    if (Math.max(Math.abs(ga), Math.abs(gb)) < STRONG) continue;
    compared++;
    if (sign(ga) !== sign(gb)) differing++;
  }
  return { differing, compared };
}

const sign = (g: number): number => (g > FLAT ? 1 : g < -FLAT ? -1 : 0);

function perceptualOf(grid: LumaGrid, aspect: number): Perceptual {
  const values = grid.values();
  const wide = resample(values, grid.width, grid.height, 9, 8);
  const tall = resample(values, grid.width, grid.height, 8, 9);
  const gradients = new Float64Array(128);
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) gradients[y * 8 + x] = wide[y * 9 + x + 1]! - wide[y * 9 + x]!;
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) gradients[64 + y * 8 + x] = tall[(y + 1) * 8 + x]! - tall[y * 8 + x]!;
  let sum = 0;
  for (const v of values) sum += v;
  return { gradients, mean: sum / values.length, aspect };
}

/** Area-weighted resampling of a grid of values to `ow` × `oh` (cells partly covered count in part). */
function resample(values: Float64Array, w: number, h: number, ow: number, oh: number): Float64Array {
  const out = new Float64Array(ow * oh);
  const spans = (n: number, on: number) =>
    Array.from({ length: on }, (_, o) => {
      const from = (o * n) / on;
      const to = ((o + 1) * n) / on;
      const parts: [number, number][] = [];
      for (let i = Math.floor(from); i < Math.min(n, Math.ceil(to)); i++)
        parts.push([i, Math.min(to, i + 1) - Math.max(from, i)]);
      return parts;
    });
  const xs = spans(w, ow);
  const ys = spans(h, oh);
  for (let oy = 0; oy < oh; oy++) {
    for (let ox = 0; ox < ow; ox++) {
      let sum = 0;
      let weight = 0;
      for (const [y, wy] of ys[oy]!)
        for (const [x, wx] of xs[ox]!) {
          sum += values[y * w + x]! * wx * wy;
          weight += wx * wy;
        }
      out[oy * ow + ox] = weight > 0 ? sum / weight : 0;
    }
  }
  return out;
}
