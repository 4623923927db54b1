// Which cached output of a job is its model: the one ranking the viewer (the job page's preview), the
// library's thumbnails and an export all use, over any job kind's outputs.
import type { AnimatedFormat } from '../file-format.ts';
import type { ModelFileFormat } from '../model-formats.ts';
import { modelFormat, parseOutputKind, type MeshFileFormat, type MeshStage, type OutputKind } from '../output-kind.ts';

/** Mesh files by format, best first for a game engine: GLB, FBX, OBJ, USDZ, then the OBJ's zip. */
const FORMAT_ORDER: readonly MeshFileFormat[] = ['glb', 'fbx', 'obj', 'usdz', 'zip'];
/** Mesh stages, best first: the refined (polished) mesh, the final one, the older flow's preview. */
const STAGE_ORDER: readonly MeshStage[] = ['polished', 'final', 'preview'];
/** The older flow's preview step shows and exports its own preview mesh first. */
const PREVIEW_STEP_ORDER: readonly MeshStage[] = ['preview', 'polished', 'final'];

const MESHES = STAGE_ORDER.length * FORMAT_ORDER.length;
const ANIMATION = MESHES;
const LIBRARY_CLIP = ANIMATION + 2;
const PROMPT_CLIP = LIBRARY_CLIP + 2;
const PROMPT_USDZ = PROMPT_CLIP + 2;
const RETOPOLOGY = PROMPT_USDZ + 1;

/**
 * Where an output stands among a job's models, lower first; undefined when it is not a model. The ranking:
 * 1. an image-to-3D mesh, by stage then by format: the refined (polished) mesh, then the final one, then the
 *    older flow's preview (its preview step puts its own preview first), each GLB > FBX > OBJ > USDZ > zip;
 * 2. a mesh animation's animated model with every clip, then a library clip's, then a prompt's (GLB before FBX
 *    when `animated` says the file's format), then a prompt's USDZ;
 * 3. a retopology's OBJ, the first mesh first.
 * An animation's uploaded mesh, pictures, spin views and videos are not the job's model.
 */
export function modelRank(
  kind: OutputKind | undefined,
  options: { step?: string | null | undefined; animated?: AnimatedFormat | undefined } = {},
): number | undefined {
  const animated = options.animated === 'fbx' ? 1 : 0;
  switch (kind?.type) {
    case 'mesh': {
      const stages = options.step === 'preview' ? PREVIEW_STEP_ORDER : STAGE_ORDER;
      return stages.indexOf(kind.stage) * FORMAT_ORDER.length + FORMAT_ORDER.indexOf(kind.format);
    }
    case 'animation':
      return ANIMATION + animated;
    case 'clip':
      if (kind.format === 'usdz') return kind.source === 'prompt' ? PROMPT_USDZ : undefined;
      return (kind.source === 'library' ? LIBRARY_CLIP : PROMPT_CLIP) + animated;
    case 'retopology':
      return kind.file === 'obj' ? RETOPOLOGY + kind.index : undefined;
    default:
      return undefined;
  }
}

export interface JobModelOptions<T> {
  /** The job's step (the older flow's `preview` puts its preview mesh first). */
  step?: string | null | undefined;
  /** The file format of an animated model (an animation, a clip's model: GLB or FBX), when known. */
  animatedFormat?: ((output: T) => AnimatedFormat | undefined) | undefined;
  /** Only models in these formats (what the caller can open); default every format the viewer opens. */
  formats?: readonly ModelFileFormat[] | undefined;
  /** Take animated models too (default true; the job page shows them in its animation panel instead). */
  animated?: boolean | undefined;
}

export interface RankedModel<T> {
  output: T;
  kind: OutputKind;
  format: ModelFileFormat;
}

/**
 * A job's outputs that hold a model, best first (modelRank); ties keep the outputs' order. An animated model
 * whose format is unknown counts as a GLB (what the local engine writes), as the viewer opens it.
 */
export function rankModels<T extends { kind: string }>(
  outputs: readonly T[],
  options: JobModelOptions<T> = {},
): RankedModel<T>[] {
  const ranked: (RankedModel<T> & { rank: number })[] = [];
  for (const output of outputs) {
    const kind = parseOutputKind(output.kind);
    if (kind === undefined) continue;
    const isAnimated = kind.type === 'animation' || (kind.type === 'clip' && kind.format === 'model');
    if (isAnimated && options.animated === false) continue;
    const animated = isAnimated ? (options.animatedFormat?.(output) ?? 'glb') : undefined;
    const format = modelFormat(kind, animated);
    const rank = modelRank(kind, { step: options.step, animated });
    if (format === undefined || rank === undefined) continue;
    if (options.formats !== undefined && !options.formats.includes(format)) continue;
    ranked.push({ output, kind, format, rank });
  }
  return ranked.sort((a, b) => a.rank - b.rank).map(({ output, kind, format }) => ({ output, kind, format }));
}

/** The output that is the job's model (rankModels' first), or undefined when none of them holds one. */
export function jobModel<T extends { kind: string }>(
  outputs: readonly T[],
  options: JobModelOptions<T> = {},
): RankedModel<T> | undefined {
  return rankModels(outputs, options)[0];
}
