// Standard Webhooks signatures (webhook-id, webhook-timestamp, webhook-signature: "v1,<base64 HMAC-SHA256>").
// The signed content is `${id}.${timestamp}.${body}`; the secret is `whsec_<base64>` (or raw text).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

export type VerifyResult = { ok: true } | { ok: false; reason: string };

function secretBytes(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers a sender adds to a webhook request. */
export function webhookHeaders(secret: string, id: string, body: string, now = Date.now()): Record<string, string> {
  const ts = Math.floor(now / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, id, ts, body) };
}

export function verifyWebhook(
  secret: string,
  headers: { id?: string | undefined; timestamp?: string | undefined; signature?: string | undefined },
  body: string,
  now = Date.now(),
  toleranceMs = WEBHOOK_TOLERANCE_MS,
): VerifyResult {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature)
    return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature header' };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: 'webhook-timestamp is not a number of seconds' };
  const ts = Number(timestamp);
  if (Math.abs(now - ts * 1000) > toleranceMs)
    return { ok: false, reason: 'webhook-timestamp is outside the 5-minute tolerance (stale or replayed)' };
  const expected = Buffer.from(signWebhook(secret, id, ts, body).slice(3), 'base64');
  for (const candidate of signature.split(' ')) {
    const [version, mac] = candidate.split(',', 2);
    if (version !== 'v1' || mac === undefined) continue;
    const given = Buffer.from(mac, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no valid v1 signature' };
}
