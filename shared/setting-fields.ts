// The fields of the app's settings and their limits: one definition for the settings kept in the database
// (main/app/setting-schemas.ts, with their defaults), the bridge's settings.update and the settings screen.
import * as z from 'zod';
import { EXPORT_TARGETS } from './export-options.ts';
import {
  BUILT_IN_PROFILES,
  PROFILE_NAMES,
  profileEditSchema,
  profileSchema,
  unknownProfileMessage,
} from './target-profiles.ts';

/** The smallest download cache that may be set: 100 MiB. */
export const MIN_CACHE_BYTES = 100 * 2 ** 20;
export const cacheMaxBytes = z.number().int().min(MIN_CACHE_BYTES);

/** The webhook receiver listens on this port (0: any free port) and path. */
export const webhookPort = z.number().int().min(0).max(65_535);
export const webhookPath = z.string().startsWith('/');
/** Standard Webhooks secret (whsec_...); without it notifications are not verified. */
export const webhookSecret = z.string().min(1);
export const WEBHOOK_DEFAULTS = { enabled: false, host: '127.0.0.1', port: 8787, path: '/webhooks' } as const;

/** The default export target (the data keeps the word `engine`). */
export const exportEngine = z.enum(EXPORT_TARGETS);

/** The default export profile's word for "no profile": the export writes the asset as it came. */
export const NO_PROFILE = 'none';
/** The profile the check uses when none is chosen or saved. */
export const FALLBACK_PROFILE = 'unity-desktop';

/**
 * `targetProfiles`: the profile chosen by default (the export panel's, the check's, the review board's; `none`:
 * exports write the asset as it came) and the user's edits of the built-in profiles, by name (each checked
 * against the profile's rules once applied: LOD ratios and screen sizes decreasing).
 */
export const targetProfilesSetting = z
  .object({
    defaultProfile: z.string().optional(),
    edits: z.record(z.string(), profileEditSchema).default({}),
  })
  .superRefine((value, ctx) => {
    const name = value.defaultProfile;
    if (name !== undefined && name !== NO_PROFILE && !PROFILE_NAMES.includes(name))
      ctx.addIssue({ code: 'custom', path: ['defaultProfile'], message: unknownProfileMessage(name) });
    for (const [profile, edit] of Object.entries(value.edits)) {
      if (!PROFILE_NAMES.includes(profile)) {
        ctx.addIssue({ code: 'custom', path: ['edits', profile], message: unknownProfileMessage(profile) });
        continue;
      }
      const base = BUILT_IN_PROFILES.find((p) => p.name === profile)!;
      const checked = profileSchema.safeParse({ ...base, ...edit });
      for (const issue of checked.success ? [] : checked.error.issues)
        ctx.addIssue({
          code: 'custom',
          path: ['edits', profile, ...issue.path.filter((p) => typeof p !== 'symbol')],
          message: issue.message,
        });
    }
  });
export type TargetProfilesSetting = z.output<typeof targetProfilesSetting>;
