// Settings of the app kept in the database (settings table), each under its key with its schema.
// The composition root reads them; the bridge (UI) and the CLI change them. The fields and their limits
// are shared with the bridge contract and the settings screen (shared/setting-fields.ts).
import * as z from 'zod';
import {
  cacheMaxBytes,
  exportEngine,
  WEBHOOK_DEFAULTS,
  webhookPath,
  webhookPort,
  webhookSecret,
} from '../../shared/setting-fields.ts';
import { OUTPUT_FORMATS, DEFAULT_FORMATS } from '../cache/outputs.ts';

/** `webhooks`: the receiver used while jobs are followed. */
export const webhookSettings = z.object({
  enabled: z.boolean().default(WEBHOOK_DEFAULTS.enabled),
  host: z.string().default(WEBHOOK_DEFAULTS.host),
  port: webhookPort.default(WEBHOOK_DEFAULTS.port),
  path: webhookPath.default(WEBHOOK_DEFAULTS.path),
  /** Without a secret, notifications are not verified. */
  secret: webhookSecret.optional(),
});
export type WebhookSettings = z.output<typeof webhookSettings>;

/** `cache`: where outputs are kept and how much room they may take. */
export const cacheSettings = z.object({
  dir: z.string().min(1).optional(),
  maxBytes: cacheMaxBytes.optional(),
});

/** `outputFormats`: which formats of a finished job are downloaded (GLB always). */
export const outputFormatsSetting = z.array(z.enum(OUTPUT_FORMATS));

/** `export`: the default export target. */
export const exportSettings = z.object({
  engine: exportEngine.optional(),
  projectDir: z.string().optional(),
});

export { DEFAULT_FORMATS };
