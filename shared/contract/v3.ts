// Generic sessions under /v3/sessions (no envelope): retopology, whose schema the service documents, and
// image_to_3d / image_to_kit with the input the vendor's own public scripts send (not in the documentation:
// the embedded engine accepts them; the app itself creates retopology sessions only).
import * as z from 'zod';
import { ASSET_PREFIX, dataUriMime, isHttpUrl, modelName, oneOf, optionalTexts, timestamp, rule } from './common.ts';
import { GEOMETRY_MODELS, RESOLUTIONS, TEXTURE_MODELS } from './image-to-3d.ts';

export const V3_SESSION_TYPES = [
  'image_to_3d',
  'multiview_to_3d',
  'text_to_image',
  'image_to_kit',
  'retopology',
] as const;
export const RETOPOLOGY_MODELS = ['swift', 'precision'] as const;

export const meshReference = z
  .string(rule('must be a GLB URL or an asset id (ASSET_...)'))
  .trim()
  .refine((v) => isHttpUrl(v) || (v.startsWith(ASSET_PREFIX) && v.length > ASSET_PREFIX.length), {
    error: 'must be an http(s) URL of a GLB file or an asset id starting with ASSET_',
  });

export const createRetopologyRequest = z.object({
  type: z.literal('retopology', rule('must be "retopology"')),
  input: z.object(
    {
      mesh: meshReference,
      model: oneOf(RETOPOLOGY_MODELS).default('swift'),
      quads: z.boolean(rule('must be true or false')).default(true),
    },
    rule('must be an object with mesh, model and quads'),
  ),
});

/** The image of an image_to_3d or image_to_kit session: an http(s) URL, an image data URI, or an image asset's id. */
export const imageReference = z
  .string(rule('must be an image URL, a data URI or an asset id (ASSET_...)'))
  .trim()
  .superRefine((value, ctx) => {
    if (isHttpUrl(value) || (value.startsWith(ASSET_PREFIX) && value.length > ASSET_PREFIX.length)) return;
    const mime = dataUriMime(value);
    if (mime === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be an http(s) URL, a base64 data URI such as data:image/png;base64,..., or an asset id starting with ASSET_',
      });
    } else if (!mime.startsWith('image/')) {
      ctx.addIssue({ code: 'custom', message: `must hold an image, but its MIME type is ${mime}` });
    }
  });

/** Most faces a generation may ask for (`settings.resolution`). */
export const MAX_GENERATION_FACES = 500_000;

/** `settings` of image_to_3d and image_to_kit; the scripts send resolution as a face count (e.g. 200000). */
export const generationSettings = z
  .looseObject(
    {
      geometry_model: oneOf(GEOMETRY_MODELS).default('base'),
      texture_model: oneOf(TEXTURE_MODELS).default('none'),
      resolution: z
        .union([z.number().int().min(100).max(MAX_GENERATION_FACES), z.enum(RESOLUTIONS)], {
          error: `must be a face count from 100 to ${MAX_GENERATION_FACES} (e.g. 200000), or "low_poly" or "high_poly"`,
        })
        .optional(),
    },
    rule('must be an object with geometry_model, texture_model and resolution'),
  )
  .default({ geometry_model: 'base', texture_model: 'none' });

/** `model` of image_to_3d, image_to_kit and multiview_to_3d. */
export const generationModel = modelName('sculpt');

export const createImageTo3dV3Request = z.object({
  type: z.literal('image_to_3d'),
  input: z.looseObject(
    { image: imageReference, model: generationModel, settings: generationSettings },
    rule('must be an object with image, model and settings'),
  ),
});

export const createImageToKitV3Request = z.object({
  type: z.literal('image_to_kit'),
  input: z.looseObject(
    {
      image: imageReference,
      model: generationModel,
      decomposition_model: modelName('pro'),
      settings: generationSettings,
    },
    rule('must be an object with image, model, decomposition_model and settings'),
  ),
});

/** The session types the embedded engine creates under POST /v3/sessions. */
export const CREATABLE_V3_TYPES = ['retopology', 'image_to_3d', 'image_to_kit'] as const;

/** Any session the embedded engine creates: retopology, image_to_3d or image_to_kit. */
export const createV3SessionRequest = z.discriminatedUnion(
  'type',
  [createRetopologyRequest, createImageTo3dV3Request, createImageToKitV3Request],
  {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined
        ? 'is required'
        : `must be one of ${CREATABLE_V3_TYPES.map((t) => `"${t}"`).join(', ')} (multiview_to_3d and text_to_image sessions cannot be created here)`,
  },
);

export const asset = z.looseObject({
  _id: z.string(),
  name: z.string().default(''),
  status: z.string(),
  data: z.looseObject(optionalTexts('glb_url', 'obj_url', 'fbx_url', 'usdz_url', 'image_url')).default({}),
});

export const retopologyInput = z.looseObject({
  mesh: asset,
  model: z.string(),
  quads: z.boolean().optional(),
});

export const retopologyOutput = z.looseObject({
  meshes: z.array(asset).default([]),
});

export const v3Session = z.looseObject({
  _id: z.string(),
  user_id: z.string().optional(),
  status: z.string(),
  type: z.string(),
  input: z.record(z.string(), z.unknown()).default({}),
  output: z.record(z.string(), z.unknown()).default({}),
  // The vendor's v3 examples (image_to_3d, image_to_kit) carry no timestamps; the retopology one does.
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

/** A v3 session whose input and output follow the retopology schema. */
export const retopologySession = v3Session.extend({
  type: z.literal('retopology'),
  input: retopologyInput,
  output: retopologyOutput,
});

/** An image_to_3d session: its image as an asset, and its mesh as an asset once made. */
export const imageTo3dV3Session = v3Session.extend({
  type: z.literal('image_to_3d'),
  input: z.looseObject({ image: asset, model: z.string(), settings: z.record(z.string(), z.unknown()).default({}) }),
  output: z.looseObject({ mesh: asset }),
});

/** An image_to_kit session: the whole kit in `meshes` and its parts in `part_meshes`, all assets. */
export const imageToKitV3Session = v3Session.extend({
  type: z.literal('image_to_kit'),
  input: z.looseObject({ image: asset, model: z.string(), settings: z.record(z.string(), z.unknown()).default({}) }),
  output: z.looseObject({ meshes: z.array(asset).default([]), part_meshes: z.array(asset).default([]) }),
});

export type CreateRetopologyRequest = z.output<typeof createRetopologyRequest>;
export type CreateV3SessionRequest = z.output<typeof createV3SessionRequest>;
export type CreateImageTo3dV3Request = z.output<typeof createImageTo3dV3Request>;
export type CreateImageToKitV3Request = z.output<typeof createImageToKitV3Request>;
export type ImageTo3dV3Session = z.output<typeof imageTo3dV3Session>;
export type ImageToKitV3Session = z.output<typeof imageToKitV3Session>;
export type Asset = z.output<typeof asset>;
export type V3Session = z.output<typeof v3Session>;
export type RetopologySession = z.output<typeof retopologySession>;
