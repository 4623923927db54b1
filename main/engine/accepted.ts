// What the engine accepts where it is wider than the contract's request schemas (which are what the app sends):
// the values public clients of the service send (the vendor's SDK in every release, its docs and eval scripts),
// checked against SERVICE_API.md. The engine never refuses a value those clients send unless the spec forbids
// it, and every refusal names the field and the allowed values.
import * as z from 'zod';
import {
  createImageTo3dLegacyRequest,
  createImageTo3dRequest,
  createV3SessionRequest,
  type EndpointId,
  generationModel,
  generationSettings,
  imageReference,
  oneOf,
  PREVIEW_MODEL_VERSIONS,
  TOPOLOGIES,
  pivotPoint,
  previewRequest,
  rule,
  scaledBbox,
} from '../../shared/contract/index.ts';

/** A boolean, or the text "true"/"false" in any case (Python's str() of a bool gives "True"/"False"). */
const looseBoolean = z.union(
  [
    z.boolean(),
    z
      .string()
      .regex(/^(true|false)$/i)
      .transform((text) => text.toLowerCase() === 'true'),
  ],
  { error: 'must be true or false (a boolean, or the text "true" or "false")' },
);

/**
 * The older create's body, at the legacy address and (when it has older parameters) at the base address. Besides
 * image_url, model_version and auto_gen_3d it reads what the SDK's first releases send: generate_preview_mesh
 * (true: the preview is made at once), generate_spin_video, preview_mesh, scaled_bbox and pivot_point. Other
 * parameters those releases send (pixel_alignment, model_resolution, diffusion_time_steps, texture_resolution,
 * creativity, refine_speed, auto_refine, topology, resolution, manual_segmentation…) are taken and ignored.
 */
export const engineOlderCreate = createImageTo3dLegacyRequest.extend({
  /** Some pages send the model version as a number (1.1). */
  model_version: z
    .union([z.string(), z.number().transform((n) => String(n))], {
      error: 'must be text (the model version, e.g. "1.1")',
    })
    .default(''),
  /** Absent and present-but-false differ at the base address (see the older create's handler). */
  auto_gen_3d: looseBoolean.optional(),
  generate_preview_mesh: looseBoolean.optional(),
  generate_spin_video: looseBoolean.optional(),
  /** The docs' older create: refine after the preview by itself. */
  auto_refine: looseBoolean.optional(),
  /** The docs' older create: false makes the meshes untextured. */
  generate_texture: looseBoolean.optional(),
  preview_mesh: z.string(rule('must be text, e.g. "turbo" or "hd"')).optional(),
  scaled_bbox: scaledBbox.optional(),
  pivot_point: pivotPoint.optional(),
  /** The docs' older create (enterprise): the refined mesh in quads. */
  topology: oneOf(TOPOLOGIES).optional(),
});
export type EngineOlderCreate = z.output<typeof engineOlderCreate>;

/** The current create, with the `pivot_point` the SDK sends (the session answers it; SERVICE_API.md lists it there). */
export const engineCurrentCreate = createImageTo3dRequest.extend({ pivot_point: pivotPoint.optional() });
export type EngineCurrentCreate = z.output<typeof engineCurrentCreate>;

/**
 * Parameters only the older create has: a create at the base address that carries one of them is the older create
 * (the service answered those with the older form and the older lifecycle at its base address too).
 */
export const OLDER_CREATE_FIELDS = [
  'auto_gen_3d',
  'model_version',
  'preview_mesh',
  'generate_preview_mesh',
  'generate_spin_video',
  'diffusion_time_steps',
  'pixel_alignment',
  'model_resolution',
  'creativity',
  'refine_speed',
  'auto_refine',
  'generate_texture',
  'texture_resolution',
] as const;

export function isOlderCreate(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  return OLDER_CREATE_FIELDS.some((field) => Object.hasOwn(body, field));
}

/**
 * Preview: `model_version` also as a number (1.1 for "1.1"); `selected_spin_index` also as the text of a
 * whole number ("2"). The rest is the contract's request.
 */
const previewVersion = z.preprocess(
  (value) => (typeof value === 'number' ? value.toFixed(1) : value),
  oneOf(PREVIEW_MODEL_VERSIONS),
);
export const enginePreview = z.preprocess(
  (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const body = { ...(value as Record<string, unknown>) };
    if (typeof body.selected_spin_index === 'string' && /^\d+$/.test(body.selected_spin_index))
      body.selected_spin_index = Number(body.selected_spin_index);
    return body;
  },
  previewRequest
    .unwrap()
    .extend({ model_version: previewVersion.default('1.1') })
    .default({
      model_version: '1.1',
      selected_spin_index: 0,
      pivot_point: [0, 0, 0],
    }),
);

/**
 * A multiview_to_3d session: `images`, the pictures of one object (the first from the front, the second from
 * its right side; more are taken and not used), `model` and `settings` as image_to_3d.
 */
export const createMultiviewV3Request = z.object({
  type: z.literal('multiview_to_3d'),
  input: z.looseObject(
    {
      images: z
        .array(
          imageReference,
          rule('must be a list of image URLs, data URIs or image asset ids: front first, then side'),
        )
        .min(2, rule('must hold at least 2 images: the front view first, then the side view'))
        .max(8, rule('must hold at most 8 images')),
      model: generationModel,
      settings: generationSettings,
    },
    rule('must be an object with images, model and settings'),
  ),
});
export type CreateMultiviewV3Request = z.output<typeof createMultiviewV3Request>;

const CREATABLE = ['retopology', 'image_to_3d', 'image_to_kit', 'multiview_to_3d'] as const;

/** Validates a /v3 create by its type, so a refusal names the fields of that type only. */
export function v3SchemaFor(body: unknown): z.ZodType {
  const type = body !== null && typeof body === 'object' ? (body as { type?: unknown }).type : undefined;
  if (type === 'multiview_to_3d') return createMultiviewV3Request;
  if (typeof type === 'string' && !CREATABLE.includes(type as (typeof CREATABLE)[number])) {
    return z.object({
      type: z.literal(CREATABLE, {
        error: `must be one of ${CREATABLE.map((t) => `"${t}"`).join(', ')} (text_to_image sessions are created with POST /tti-sessions)`,
      }),
    });
  }
  return createV3SessionRequest;
}

export interface Accepted {
  body?: z.ZodType;
  query?: z.ZodType;
}

/** Per endpoint, the schema the engine validates with instead of the contract's. */
export const ENGINE_ACCEPTS: Partial<Record<EndpointId, Accepted>> = {
  createImageTo3d: { body: engineCurrentCreate },
  createImageTo3dLegacy: { body: engineOlderCreate },
  preview: { body: enginePreview },
};
