// Identifiers and timestamps of engine records.
import { createHash, randomBytes } from 'node:crypto';
import { ASSET_PREFIX, SESSION_PREFIX } from '../../shared/contract/index.ts';

/** Random lowercase hex: 12 bytes give the 24 characters of a record `_id`. */
export function randomHex(bytes = 12): string {
  return randomBytes(bytes).toString('hex');
}

export const newSessionCode = (): string => SESSION_PREFIX + randomHex();
export const newAssetId = (): string => ASSET_PREFIX + randomHex();

/** ISO 8601 UTC with milliseconds. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** A new record's two timestamps, both `now`. */
export const createdAt = (now: number): { created_at: string; updated_at: string } => ({
  created_at: iso(now),
  updated_at: iso(now),
});

/** The account of an API key: a stable id that does not reveal the key. */
export function userIdOf(apiKey: string): string {
  return createHash('sha256').update(`asset-studio-user:${apiKey}`).digest('hex').slice(0, 24);
}
