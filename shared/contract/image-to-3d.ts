// Image-to-3D: sessions in their current and older forms, requests, mesh availability, get-3D jobs.
import * as z from 'zod';
import {
  imageSource,
  oneOf,
  optionalTexts,
  outputUrl,
  pivotPoint,
  scaledBbox,
  sessionCode,
  timestamp,
  rule,
} from './common.ts';

export const GEOMETRY_MODELS = ['base', 'turbo'] as const;
export const TEXTURE_MODELS = ['none', 'baked', 'pbr'] as const;
export const TOPOLOGIES = ['tris', 'quads'] as const;
export const RESOLUTIONS = ['low_poly', 'high_poly'] as const;
export const PREVIEW_MODEL_VERSIONS = ['1.0', '1.1', '1.2'] as const;

// ---- requests ---------------------------------------------------------------------------------

export const createImageTo3dRequest = z.object({
  image_url: imageSource,
  geometry_model: oneOf(GEOMETRY_MODELS).default('base'),
  texture_model: oneOf(TEXTURE_MODELS).default('none'),
  scaled_bbox: scaledBbox.default([-1, -1, -1]),
  preserve_aspect_ratio: z.boolean(rule('must be true or false')).default(false),
  topology: oneOf(TOPOLOGIES).default('tris'),
  resolution: oneOf(RESOLUTIONS).default('high_poly'),
});

/** The older create variant, sent to the legacy base address. */
export const createImageTo3dLegacyRequest = z.object({
  image_url: imageSource,
  model_version: z.string(rule('must be text')).default(''),
  /** Older scripts send the strings "true" and "false" (Python's str() gives "True"/"False"); all are accepted. */
  auto_gen_3d: z
    .union(
      [
        z.boolean(),
        z
          .string()
          .regex(/^(true|false)$/i)
          .transform((text) => text.toLowerCase() === 'true'),
      ],
      {
        error: 'must be true or false (a boolean, or the text "true" or "false")',
      },
    )
    .default(false),
});

export const submitSpinRequest = z.object({
  session_code: sessionCode,
  image_urls: z
    .array(imageSource, rule('must be a list holding the one image URL used for the spin'))
    .length(1, rule('must hold exactly one image URL (the image used for the spin)')),
});

export const previewRequest = z
  .object({
    model_version: oneOf(PREVIEW_MODEL_VERSIONS).default('1.1'),
    selected_spin_index: z
      .number(rule('must be a number from 0 to 3'))
      .int(rule('must be a whole number from 0 to 3'))
      .min(0, rule('must be 0, 1, 2 or 3 (one of the four spin images)'))
      .max(3, rule('must be 0, 1, 2 or 3 (one of the four spin images)'))
      .default(0),
    selected_spin: imageSource.optional(),
    scaled_bbox: scaledBbox.optional(),
    pivot_point: pivotPoint.default([0, 0, 0]),
  })
  .default({ model_version: '1.1', selected_spin_index: 0, pivot_point: [0, 0, 0] });

export const refineRequest = z
  .object({
    scaled_bbox: scaledBbox.optional(),
    pivot_point: pivotPoint.optional(),
  })
  .default({});

export const listImageTo3dQuery = z.object({
  limit: z.coerce
    .number(rule('must be a number of records'))
    .int(rule('must be a whole number'))
    .min(1, rule('must be at least 1'))
    .max(100, rule('must be at most 100'))
    .default(10),
  // A page number from 1 (the vendor's examples), or, as the spec words it, the number of records to skip
  // (then 0 is the first record): both readings are met, so 0 is allowed (main/jobs/list-pages.ts).
  page: z.coerce
    .number(rule('must be a page number'))
    .int(rule('must be a whole number'))
    .min(0, rule('must be 0 or more'))
    .default(1),
});

// ---- responses --------------------------------------------------------------------------------

export const spinImage = z.looseObject({
  image_name: z.string().default(''),
  image_url: z.string(),
  height: z.number().int().optional(),
  width: z.number().int().optional(),
});

/** Current form: returned by create and get. */
export const imageTo3dSession = z
  .looseObject({
    session_code: z.string(),
    image_url: z.string().default(''),
    manual_segmentation: z.boolean().optional(),
    ...optionalTexts('geometry_model', 'texture_model', 'topology', 'resolution', 'symmetry'),
    scaled_bbox: z.array(z.number()).optional(),
    preserve_aspect_ratio: z.boolean().optional(),
    pivot_point: z.array(z.number()).optional(),
    mesh_url: outputUrl,
    mesh_url_obj: outputUrl,
    mesh_url_zip: outputUrl,
    mesh_url_glb: outputUrl,
    mesh_url_fbx: outputUrl,
    mesh_url_usdz: outputUrl,
    mp4_url: outputUrl,
    // The vendor's get-session example carries both; other answers of the service may leave them out.
    created_at: timestamp.optional(),
    updated_at: timestamp.optional(),
    // The current form's status. The real service also answers in the older form, with `status` (and
    // `spins`) and no `session_status`, at create and at read (what the official SDK reads up to 0.1.5):
    // one of the two is required, and sessionStatusOf() reads whichever is there.
    session_status: z.string().optional(),
    percent_done: z.number().optional(),
    // Sessions made with the older create also carry, when read here, what older clients read: the older
    // status, the spin views and the preview meshes (absent from other sessions).
    status: z.string().optional(),
    percentage: z.number().optional(),
    spins: z.array(spinImage).optional(),
    ...optionalTexts('preview_mesh_url_glb', 'preview_mesh_url_zip', 'preview_mesh_url_usdz'),
  })
  .superRefine((session, ctx) => {
    if (session.session_status === undefined && session.status === undefined)
      ctx.addIssue({ code: 'custom', path: ['session_status'], message: 'is required (or status, in the older form)' });
  });

/** The status of an image-to-3D session in either form: `session_status`, else the older form's `status`. */
export function sessionStatusOf(session: { session_status?: string | undefined; status?: string | undefined }): string {
  return session.session_status ?? session.status ?? '';
}

/** Its progress in percent: `percent_done`, else the older form's `percentage`. */
export function sessionPercentOf(session: {
  percent_done?: number | undefined;
  percentage?: number | undefined;
}): number | undefined {
  return session.percent_done ?? session.percentage;
}

/** Older form: returned by the older create variant and by the list endpoint. */
export const imageTo3dSessionOlder = z.looseObject({
  _id: z.string(),
  user_id: z.string().nullable().optional(),
  session_code: z.string(),
  image_url: z.string().default(''),
  input_image: z.string().default(''),
  user_image: z.string().default(''),
  mesh_url: outputUrl,
  mesh_url_usdz: outputUrl,
  mesh_url_glb: outputUrl,
  mesh_url_zip: outputUrl,
  mesh_url_obj: outputUrl,
  mp4_url: outputUrl,
  preview_mesh_url_zip: outputUrl,
  preview_mesh_url_glb: outputUrl,
  preview_mesh_url_usdz: outputUrl,
  polished_mesh_url: outputUrl,
  polished_mesh_url_usdz: outputUrl,
  polished_mesh_url_glb: outputUrl,
  session_gif: outputUrl,
  percentage: z.number().default(0),
  status: z.string(),
  model_version: z.string().optional(),
  inference: z.array(spinImage).default([]),
  created_at: timestamp,
  updated_at: timestamp,
});

export const meshAvailability = z.looseObject({
  mesh_url_usdz: outputUrl,
  mesh_url_glb: outputUrl,
  mesh_url: outputUrl,
  mesh_url_zip: outputUrl,
  preview_mesh_url_zip: outputUrl,
  preview_mesh_url_glb: outputUrl,
  preview_mesh_url_usdz: outputUrl,
  status: z.string(),
});

/** task_data arrives as a JSON-encoded string; it is decoded into an object (kept raw when not JSON). */
const taskData = z.string().transform((text, ctx): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the issue below
  }
  ctx.addIssue({ code: 'custom', message: 'must be a JSON-encoded object' });
  return z.NEVER;
});

export const get3dJobAck = z.looseObject({
  scenario: z.string(),
  unique_trial_key: z.string(),
  status: z.string(),
  complete_job_data: z
    .looseObject({
      ...optionalTexts(
        'scenario',
        'job_priority',
        'username',
        'call',
        'user_id',
        'status',
        'start_time',
        'unique_trial_key',
      ),
      task_data: taskData.optional(),
      id: z.string().optional(),
    })
    .optional(),
});

export const imageTo3dList = z.looseObject({
  results: z.array(imageTo3dSessionOlder),
  page: z.number().int(),
  // Which records came back (the vendor's mesh-animation list answers without it).
  skip: z.number().int().optional(),
  limit: z.number().int(),
  totalPages: z.number().int(),
  totalResults: z.number().int(),
  credits: z.number().optional(),
  image_to_3d_credits: z.number().optional(),
});

export const emptyData = z.looseObject({});

export type CreateImageTo3dInput = z.input<typeof createImageTo3dRequest>;
export type CreateImageTo3dRequest = z.output<typeof createImageTo3dRequest>;
export type CreateImageTo3dLegacyRequest = z.output<typeof createImageTo3dLegacyRequest>;
export type SubmitSpinRequest = z.output<typeof submitSpinRequest>;
export type PreviewRequest = z.output<typeof previewRequest>;
export type RefineRequest = z.output<typeof refineRequest>;
export type ListImageTo3dQuery = z.output<typeof listImageTo3dQuery>;
export type ImageTo3dSession = z.output<typeof imageTo3dSession>;
export type ImageTo3dSessionOlder = z.output<typeof imageTo3dSessionOlder>;
export type MeshAvailability = z.output<typeof meshAvailability>;
export type Get3dJobAck = z.output<typeof get3dJobAck>;
export type ImageTo3dList = z.output<typeof imageTo3dList>;
