// Generic sessions under /v3/sessions (no envelope), with retopology as the one type whose schema is known.
import { z } from 'zod';
import { ASSET_PREFIX, isHttpUrl, oneOf, timestamp, rule } from './common.ts';

export const V3_SESSION_TYPES = ['image_to_3d', 'multiview_to_3d', 'text_to_image', 'image_to_kit', 'retopology'] as const;
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

export const asset = z.looseObject({
  _id: z.string(),
  name: z.string().default(''),
  status: z.string(),
  data: z
    .looseObject({
      glb_url: z.string().optional(),
      obj_url: z.string().optional(),
      image_url: z.string().optional(),
    })
    .default({}),
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
  created_at: timestamp,
  updated_at: timestamp,
});

/** A v3 session whose input and output follow the retopology schema. */
export const retopologySession = v3Session.extend({
  type: z.literal('retopology'),
  input: retopologyInput,
  output: retopologyOutput,
});

export type CreateRetopologyRequest = z.output<typeof createRetopologyRequest>;
export type Asset = z.output<typeof asset>;
export type V3Session = z.output<typeof v3Session>;
export type RetopologySession = z.output<typeof retopologySession>;
