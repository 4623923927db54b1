// Target profiles: what an asset must be for one engine on one kind of platform (a triangle budget, the largest
// texture, its LOD chain, texel density, texture format, units and axes, skinning limits). The one home of a
// profile's data: the export (which applies it), the engine-fit check, the CLI's --profile and check, the settings
// screen (edits saved as the `targetProfiles` setting), the export panel, the review board and the viewer derive
// from it. (The Blender add-on does not offer profiles yet.)
import * as z from 'zod';
import { EXPORT_TARGETS, type ExportTarget } from './export-options.ts';

export const PLATFORMS = ['mobile', 'desktop', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The formats a profile's textures are written in: PNG keeps data maps lossless; JPEG and WebP are smaller. */
export const TEXTURE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type TextureFormat = (typeof TEXTURE_FORMATS)[number];

/** Texture sizes a profile may cap at (powers of two: every engine's mip chain and compression want them). */
export const TEXTURE_SIZES = [256, 512, 1024, 2048, 4096, 8192] as const;

const ratio = z.number().gt(0).max(1);
const textureSize = z
  .number()
  .int()
  .refine((v) => (TEXTURE_SIZES as readonly number[]).includes(v), `one of ${TEXTURE_SIZES.join(', ')} pixels`);

/** One level of a LOD chain: its share of LOD0's triangles and the screen size (0..1 of the view's height) below which the next level shows. */
export const lodLevelSchema = z.object({ ratio, screenSize: z.number().gt(0).max(1) }).strict();
export type LodLevel = z.infer<typeof lodLevelSchema>;

export const profileSchema = z
  .object({
    /** `<engine>-<platform>`, or `web`. */
    name: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    label: z.string().min(1).max(80),
    engine: z.enum(EXPORT_TARGETS),
    platform: z.enum(PLATFORMS),
    /** LOD0's triangle budget for one prop. */
    triangleBudget: z.number().int().min(100).max(10_000_000),
    /** The largest side of any texture, in pixels. */
    maxTextureSize: textureSize,
    /**
     * LOD1..LODn (LOD0 is the model within the budget, shown down to `lod0ScreenSize`). Empty: no LODs are made.
     * Ratios strictly decrease; screen sizes strictly decrease.
     */
    lods: z.array(lodLevelSchema).max(7),
    /** Where LOD0 hands over to LOD1, as a share of the screen's height. */
    lod0ScreenSize: z.number().gt(0).max(1),
    /** The texel density the textures should reach, in pixels per metre of surface. */
    texelDensity: z.number().int().min(16).max(8192),
    textureFormat: z.enum(TEXTURE_FORMATS),
    /** The units and up axis of the engine's world (its importer converts from glTF's metres and Y up). */
    units: z.enum(['m', 'cm']),
    upAxis: z.enum(['y', 'z']),
    /** The most bones that may move one vertex (the engine's skin weights setting). */
    maxBonesPerVertex: z.number().int().min(1).max(8),
  })
  .strict()
  .superRefine((p, ctx) => {
    for (let i = 0; i < p.lods.length; i += 1) {
      const prev = i === 0 ? { ratio: 1, screenSize: p.lod0ScreenSize } : p.lods[i - 1];
      const lod = p.lods[i];
      if (!prev || !lod) continue;
      if (lod.ratio >= prev.ratio) {
        ctx.addIssue({
          code: 'custom',
          path: ['lods', i, 'ratio'],
          message: `LOD${i + 1} must keep fewer triangles than LOD${i}`,
        });
      }
      if (lod.screenSize >= prev.screenSize) {
        ctx.addIssue({
          code: 'custom',
          path: ['lods', i, 'screenSize'],
          message: `LOD${i + 1} must show at a smaller screen size than LOD${i}`,
        });
      }
    }
  });
export type TargetProfile = z.infer<typeof profileSchema>;

/** What a user may change in a built-in profile (saved in Settings as `profileEdits[name]`). */
export const profileEditSchema = z
  .object({
    triangleBudget: z.number().int().min(100).max(10_000_000),
    maxTextureSize: textureSize,
    lods: z.array(lodLevelSchema).max(7),
    lod0ScreenSize: z.number().gt(0).max(1),
    texelDensity: z.number().int().min(16).max(8192),
    textureFormat: z.enum(TEXTURE_FORMATS),
    maxBonesPerVertex: z.number().int().min(1).max(8),
  })
  .partial()
  .strict();
export type ProfileEdit = z.infer<typeof profileEditSchema>;

// LOD levels from the engines' documentation:
// - Unity: "LOD Group" manual page: a new LOD Group's defaults are LOD0 down to 60 % of the screen height, LOD1 to
//   30 %, LOD2 to 10 %, culled below that; the model importer builds the group from meshes named `_LOD0.._LODn`
//   ("Importing LOD Meshes"). Mobile keeps 3 levels at halving triangles.
// - Unreal: "Static Mesh Automatic LOD Generation" (Reduction Settings): each LOD keeps 50 % of the triangles of
//   the one before (Percent Triangles 50 %) and the default screen sizes are 1.0, 0.5, 0.25, 0.125.
// - Godot 4: the importer generates LODs itself ("Mesh level of detail (LOD)": Generate LODs on, LOD bias 1.0);
//   the levels here only say what the check and the viewer's preview expect, the export writes the base mesh.
// - glTF (`MSFT_lod`): no engine of its own; three.js's and Babylon.js's examples use halving ratios, and the
//   screen coverages are written as `MSFT_screencoverage` in the node's extras.
const UNITY_LODS: LodLevel[] = [
  { ratio: 0.5, screenSize: 0.3 },
  { ratio: 0.25, screenSize: 0.1 },
];
const UNREAL_LODS: LodLevel[] = [
  { ratio: 0.5, screenSize: 0.5 },
  { ratio: 0.25, screenSize: 0.25 },
  { ratio: 0.125, screenSize: 0.125 },
];
const GODOT_LODS: LodLevel[] = UNREAL_LODS;
const WEB_LODS: LodLevel[] = [
  { ratio: 0.5, screenSize: 0.25 },
  { ratio: 0.25, screenSize: 0.1 },
];

/** Default budgets for one prop (issue #31): mobile 10,000 triangles and 1024 px, desktop 50,000 and 2048 px, web 20,000 and 1024 px. */
const MOBILE = { triangleBudget: 10_000, maxTextureSize: 1024, texelDensity: 256, maxBonesPerVertex: 2 } as const;
const DESKTOP = { triangleBudget: 50_000, maxTextureSize: 2048, texelDensity: 512, maxBonesPerVertex: 4 } as const;

export const BUILT_IN_PROFILES: readonly TargetProfile[] = [
  {
    name: 'unity-mobile',
    label: 'Unity — mobile',
    engine: 'unity',
    platform: 'mobile',
    ...MOBILE,
    lods: UNITY_LODS,
    lod0ScreenSize: 0.6,
    textureFormat: 'png',
    units: 'm',
    upAxis: 'y',
  },
  {
    name: 'unity-desktop',
    label: 'Unity — desktop',
    engine: 'unity',
    platform: 'desktop',
    ...DESKTOP,
    lods: UNITY_LODS,
    lod0ScreenSize: 0.6,
    textureFormat: 'png',
    units: 'm',
    upAxis: 'y',
  },
  {
    name: 'unreal-desktop',
    label: 'Unreal — desktop',
    engine: 'unreal',
    platform: 'desktop',
    ...DESKTOP,
    maxBonesPerVertex: 8,
    lods: UNREAL_LODS,
    lod0ScreenSize: 1,
    textureFormat: 'png',
    units: 'cm',
    upAxis: 'z',
  },
  {
    name: 'godot-mobile',
    label: 'Godot — mobile',
    engine: 'godot',
    platform: 'mobile',
    ...MOBILE,
    lods: GODOT_LODS,
    lod0ScreenSize: 1,
    textureFormat: 'png',
    units: 'm',
    upAxis: 'y',
  },
  {
    name: 'godot-desktop',
    label: 'Godot — desktop',
    engine: 'godot',
    platform: 'desktop',
    ...DESKTOP,
    lods: GODOT_LODS,
    lod0ScreenSize: 1,
    textureFormat: 'png',
    units: 'm',
    upAxis: 'y',
  },
  {
    name: 'web',
    label: 'Web (glTF)',
    engine: 'folder',
    platform: 'web',
    triangleBudget: 20_000,
    maxTextureSize: 1024,
    texelDensity: 256,
    maxBonesPerVertex: 4,
    lods: WEB_LODS,
    lod0ScreenSize: 0.5,
    textureFormat: 'webp',
    units: 'm',
    upAxis: 'y',
  },
].map((p) => profileSchema.parse(p));

export const PROFILE_NAMES = BUILT_IN_PROFILES.map((p) => p.name);

/** Thrown (and shown) when a profile name is not one of the built-in ones. */
export function unknownProfileMessage(name: string): string {
  return `There is no target profile "${name}". Choose one of: ${PROFILE_NAMES.join(', ')}.`;
}

/**
 * The profile named, with the user's saved edits applied and checked again; undefined for an unknown name. An
 * edit that breaks the profile's rules (LOD ratios not decreasing, say) throws the schema's error.
 */
export function resolveProfile(
  name: string,
  edits: Readonly<Record<string, ProfileEdit>> = {},
): TargetProfile | undefined {
  const base = BUILT_IN_PROFILES.find((p) => p.name === name);
  if (!base) return undefined;
  const edit = edits[name];
  return edit ? profileSchema.parse({ ...base, ...edit }) : base;
}

/** The profiles made for one export target (the export panel offers these first). */
export function profilesFor(target: ExportTarget): TargetProfile[] {
  return BUILT_IN_PROFILES.filter((p) => p.engine === target);
}

/** The triangle count each LOD level aims at for a model of `triangles` (LOD0 capped at the budget). */
export function lodTargets(profile: TargetProfile, triangles: number): number[] {
  const lod0 = Math.min(triangles, profile.triangleBudget);
  return [lod0, ...profile.lods.map((l) => Math.max(1, Math.floor(lod0 * l.ratio)))];
}
