// Text-to-image sessions and trained styles.
import * as z from 'zod';
import { httpUrl, outputUrl, timestamp, rule } from './common.ts';

export const createTextToImageRequest = z.object({
  prompt: z
    .string(rule('must be text describing the image'))
    .trim()
    .min(1, rule('must not be empty: describe objects, colours, places or characters')),
  /** An empty string means no style, as the service's own examples send it. */
  style_id: z.string(rule('must be a style identifier, or "" for no style')).trim().optional(),
});

export const createStyleRequest = z.object({
  zip_url: httpUrl,
  description: z
    .string(rule('must be text describing the style'))
    .trim()
    .min(1, rule('must not be empty: describe the style')),
  is_public: z.boolean(rule('must be true or false')).optional(),
});

export const textToImageSession = z.looseObject({
  _id: z.string(),
  session_code: z.string(),
  style_id: z.string().default(''),
  prompt: z.string(),
  guidance: z.number().optional(),
  user_id: z.string().optional(),
  image_url: outputUrl,
  type: z.string().optional(),
  status: z.string(),
  is_deleted: z.boolean().optional(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const textToImageStyle = z.looseObject({
  _id: z.string(),
  description: z.string(),
  user_id: z.string().optional(),
  style_id: z.string(),
  image_url: outputUrl,
  zip_url: z.string(),
  is_public: z.boolean().default(false),
  status: z.string(),
  is_deleted: z.boolean().optional(),
  created_at: timestamp,
  updated_at: timestamp,
});

export type CreateTextToImageRequest = z.output<typeof createTextToImageRequest>;
export type CreateStyleRequest = z.output<typeof createStyleRequest>;
export type TextToImageSession = z.output<typeof textToImageSession>;
export type TextToImageStyle = z.output<typeof textToImageStyle>;
