// Mesh animation: FBX/zip upload, text prompts, and the animation session with its joint data.
import * as z from 'zod';
import { httpUrl, outputUrl, sessionCode, timestamp, rule } from './common.ts';

/** The 17 joints of `animation_joint_dict`, in body order. */
export const JOINT_NAMES = [
  'Pelvis',
  'R_Hip',
  'R_Knee',
  'R_Ankle',
  'L_Hip',
  'L_Knee',
  'L_Ankle',
  'Torso',
  'Neck',
  'Nose',
  'Head',
  'L_Shoulder',
  'L_Elbow',
  'L_Wrist',
  'R_Shoulder',
  'R_Elbow',
  'R_Wrist',
] as const;
export type JointName = (typeof JOINT_NAMES)[number];

/** Upload by URL (JSON body). A local file goes as multipart form data with the field `file`. */
export const uploadMeshUrlRequest = z.object({
  mesh_url: httpUrl,
});

export const textMultiRequest = z.object({
  session_code: sessionCode,
  texts: z
    .array(
      z
        .string(rule('must be text describing one animation'))
        .trim()
        .min(1, rule('must not be empty: describe the animation, e.g. "walk forward"')),
      rule('must be a list of animation descriptions'),
    )
    .min(1, rule('must hold at least one animation description')),
});

export const promptRecord = z.looseObject({
  _id: z.string(),
  session_code: z.string().optional(),
  text: z.string(),
  mesh_url: outputUrl,
  usdz_url: outputUrl,
  status: z.string(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

export const libraryAnimation = z.looseObject({
  label: z.string(),
  url: z.string(),
  _id: z.string().optional(),
});

export const jointPoint = z.array(z.number()).length(2);

export const animationSession = z.looseObject({
  _id: z.string(),
  session_code: z.string(),
  image_to_3d_session_code: z.string().default(''),
  render_url: outputUrl,
  mesh_url: outputUrl,
  thumbnail: outputUrl,
  animation_url: outputUrl,
  status: z.string(),
  prompts: z.array(promptRecord).default([]),
  animation_library: z.array(libraryAnimation).default([]),
  animation_joint_dict: z.record(z.string(), jointPoint).default({}),
  created_at: timestamp,
  updated_at: timestamp,
});

/** `GET /mesh-animation`: the vendor's example has no `skip` (unlike the image-to-3D list). */
export const animationList = z.looseObject({
  results: z.array(animationSession),
  page: z.number().int(),
  skip: z.number().int().optional(),
  limit: z.number().int(),
  totalPages: z.number().int(),
  totalResults: z.number().int(),
});

export const uploadResult = z.looseObject({
  session_code: z.string(),
  mesh_url: outputUrl,
  status: z.string(),
});

export const textMultiItem = z.looseObject({
  text: z.string(),
  message: z.string().default(''),
  isError: z.boolean(),
});

export const textMultiResult = z.looseObject({
  responses: z.array(textMultiItem),
});

export type UploadMeshUrlRequest = z.output<typeof uploadMeshUrlRequest>;
export type TextMultiRequest = z.output<typeof textMultiRequest>;
export type PromptRecord = z.output<typeof promptRecord>;
export type AnimationSession = z.output<typeof animationSession>;
export type UploadResult = z.output<typeof uploadResult>;
export type TextMultiResult = z.output<typeof textMultiResult>;
