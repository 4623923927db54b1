// What a mesh made from a picture is asked to be, as its outputs' recipes record it (JSON in the engine's state,
// read back through this schema): the picture, the face budget (`resolution`), quads or triangles (`topology`),
// the texture (`texture_model`), the size (`scaled_bbox`, `preserve_aspect_ratio`), the origin (`pivot_point`) and
// for the older flow the spin view it was made from (a quarter turn about the vertical axis per view).
import * as z from 'zod';
import { placeInBox, type Vec3 } from '../outputs/mesh.ts';
import { MAX_GENERATION_FACES } from '../../../shared/contract/v3.ts';

export const MIN_FACES = 100;

const vec3 = z.tuple([z.number(), z.number(), z.number()]);

export const pictureMeshSchema = z.object({
  /** File key of the stored picture (under the engine's files folder). */
  picture: z.string().min(1),
  /** Most faces of the model: quads count one when `quads`, else faces are triangles. */
  faces: z.number().int().min(MIN_FACES).max(MAX_GENERATION_FACES),
  quads: z.boolean(),
  texture: z.enum(['none', 'baked', 'pbr']),
  /** [width, height, depth] in metres; -1 keeps the natural size (1 m on the longest side) on that axis. */
  scale: vec3
    .refine((v) => v.every((x) => x === -1 || (Number.isFinite(x) && x > 0)), 'each size must be above 0 or -1')
    .optional(),
  preserveAspectRatio: z.boolean().optional(),
  /** Origin in the bounding box, each in [-0.5, 0.5]: [0, 0, 0] the centre, [0, -0.5, 0] the bottom centre. */
  pivot: vec3.refine((v) => v.every((x) => Math.abs(x) <= 0.5), 'each pivot value must be in [-0.5, 0.5]').optional(),
  /** Quarter turns about +Y: the older flow's spin view the model was made from (0 is the picture's own view). */
  turn: z.number().int().min(0).max(3).optional(),
});

export type PictureMesh = z.infer<typeof pictureMeshSchema>;

/**
 * Turns the model by its quarter turns about +Y, as the spin view of that number shows it (rasterize.ts), then scales it into
 * its box and moves its pivot to the origin, by the seeded meshes' rule (natural size: 1 m on the longest side).
 * Normals are to be computed afterwards (an uneven scale changes them).
 */
export function placeModel(
  positions: Float32Array,
  spec: Pick<PictureMesh, 'scale' | 'preserveAspectRatio' | 'pivot' | 'turn'>,
): void {
  const turns = spec.turn ?? 0;
  if (turns !== 0) {
    const angle = (turns * Math.PI) / 2;
    const cos = Math.round(Math.cos(angle));
    const sin = Math.round(Math.sin(angle));
    for (let i = 0; i < positions.length; i += 3) {
      const x = positions[i]!;
      const z = positions[i + 2]!;
      positions[i] = cos * x + sin * z;
      positions[i + 2] = -sin * x + cos * z;
    }
  }
  const pivot: Vec3 = spec.pivot ?? [0, 0, 0];
  placeInBox(positions, {
    scale: spec.scale ?? [-1, -1, -1],
    preserveAspectRatio: spec.preserveAspectRatio ?? false,
    pivot,
  });
}
