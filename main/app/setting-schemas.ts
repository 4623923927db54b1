// Settings of the app kept in the database (settings table), each under its key with its schema.
// The composition root reads them; the bridge (UI) and the CLI change them.
import { z } from 'zod';
import { OUTPUT_FORMATS, DEFAULT_FORMATS } from '../cache/outputs.ts';
import { EXPORT_TARGETS } from '../export/presets.ts';

/** `webhooks`: the receiver used while jobs are followed. */
export const webhookSettings = z.object({
  enabled: z.boolean().default(false),
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8787),
  path: z.string().startsWith('/').default('/webhooks'),
  /** Standard Webhooks secret (whsec_...); without it notifications are not verified. */
  secret: z.string().min(1).optional(),
});
export type WebhookSettings = z.output<typeof webhookSettings>;

/** `cache`: where outputs are kept and how much room they may take. */
export const cacheSettings = z.object({
  dir: z.string().min(1).optional(),
  maxBytes: z.number().int().min(100 * 2 ** 20).optional(),
});

/** `outputFormats`: which formats of a finished job are downloaded (GLB always). */
export const outputFormatsSetting = z.array(z.enum(OUTPUT_FORMATS));

/** `export`: the default export target. */
export const exportSettings = z.object({
  engine: z.enum(EXPORT_TARGETS).optional(),
  projectDir: z.string().optional(),
});

export { DEFAULT_FORMATS };
