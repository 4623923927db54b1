// How much detail a picture can give a model made from it: one rule for the local engine's textures
// (main/engine/generate/) and the create form's warning on small pictures (renderer/src/screens/create/).
// A texture cannot hold more detail than the picture it is sampled from, so each square half of the engine's
// texture atlas is no larger than the next power of two at or above the picture's larger side (an 80×73
// picture: 128 px, an atlas of 256×128), nor than its face budget asks for (512 or 1024 px).

/** The local engine's faces for each named resolution (the service documents none). */
export const LOCAL_RESOLUTION_FACES = { low_poly: 2_000, high_poly: 20_000 } as const;

/** The local engine's texture side (each half of its atlas) for a face budget, before the picture limits it. */
export function budgetTextureSide(faces: number): number {
  return faces <= 5_000 ? 512 : 1024;
}

/** Below this many pixels on its shorter side a picture is called small in the create form. */
export const SMALL_PICTURE_SIDE = 256;

/** The least power of two at or above `n` (1 for n ≤ 1). */
export function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** The side of each square half of the texture atlas: the budget's, but no larger than the picture can fill. */
export function textureSideFor(budgetSide: number, picture: { width: number; height: number }): number {
  return Math.min(budgetSide, nextPowerOfTwo(Math.max(picture.width, picture.height)));
}
