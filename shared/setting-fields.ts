// The fields of the app's settings and their limits: one definition for the settings kept in the database
// (main/app/setting-schemas.ts, with their defaults), the bridge's settings.update and the settings screen.
import * as z from 'zod';
import { EXPORT_TARGETS } from './export-options.ts';

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
