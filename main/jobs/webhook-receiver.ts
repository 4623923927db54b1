// The webhook receiver: accepts the service's notifications, verifies them (Standard Webhooks, when a
// secret is set), drops duplicates, answers at once, and then wakes the jobs of that session so the
// tracker re-reads it. The payload is a wake-up call, never the truth about a session.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as z from 'zod';
import type { Store } from '../store/database.ts';
import { verifyWebhook } from '../formats/webhook-signature.ts';
import { jsonOf, optionalTexts } from '../../shared/contract/index.ts';

/** Older form `{type, payload}` (type an older-flow status) and `session_status_changed` (flat or under data/payload). */
const sessionFields = z.looseObject(
  optionalTexts('session_id', 'session_code', 'scenario', 'old_status', 'new_status', 'status'),
);
const webhookPayload = sessionFields.extend({
  ...optionalTexts('type', 'event'),
  payload: sessionFields.optional(),
  data: sessionFields.optional(),
});

export interface WebhookEvent {
  sessionId: string;
  type: string;
  newStatus?: string | undefined;
}

export function parseWebhookBody(text: string): WebhookEvent | undefined {
  const parsed = jsonOf(webhookPayload).safeParse(text);
  if (!parsed.success) return undefined;
  const p = parsed.data;
  const inner = p.payload ?? p.data ?? {};
  const sessionId =
    p.session_id ?? p.session_code ?? inner.session_id ?? inner.session_code ?? inner.scenario ?? p.scenario;
  if (!sessionId) return undefined;
  const type = p.type ?? p.event ?? 'unknown';
  // The older form names the new status in its type (e.g. `preview_done`).
  const newStatus =
    p.new_status ??
    inner.new_status ??
    inner.status ??
    p.status ??
    (type === 'session_status_changed' || type === 'unknown' ? undefined : type);
  return { sessionId, type, newStatus };
}

export interface WebhookReceiverOptions {
  store: Store;
  /** Called after a valid, new notification: wake the jobs of this session (tracker.wake(id, newStatus)). */
  onEvent: (event: WebhookEvent) => void;
  /** Standard Webhooks secret (`whsec_...`); without it notifications are not verified. */
  secret?: string | undefined;
  host?: string;
  port?: number;
  path?: string;
  maxBodyBytes?: number;
  now?: () => number;
  log?: (line: string) => void;
}

export interface RunningReceiver {
  url: string;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<RunningReceiver> {
  const path = options.path ?? '/webhooks';
  const maxBody = options.maxBodyBytes ?? 256 * 1024;
  const now = options.now ?? Date.now;
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => reply(res, 500, 'error'));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return reply(res, 404, 'not found');
    if (req.method !== 'POST') return reply(res, 405, 'use POST');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBody) return reply(res, 413, 'payload too large');
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks).toString('utf8');
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const id = header('webhook-id');
    if (options.secret) {
      const verdict = verifyWebhook(
        options.secret,
        { id, timestamp: header('webhook-timestamp'), signature: header('webhook-signature') },
        body,
        now(),
      );
      if (!verdict.ok) {
        options.log?.(`webhook refused: ${verdict.reason}`);
        return reply(res, 401, verdict.reason);
      }
    }
    const event = parseWebhookBody(body);
    if (!event) return reply(res, 400, 'not a session notification');
    const deliveryId = id ?? `body_${createHash('sha256').update(body).digest('hex')}`;
    const isNew = options.store.webhooks.recordIfNew(deliveryId, {
      sessionId: event.sessionId,
      eventType: event.type,
      now: now(),
    });
    reply(res, 204);
    if (isNew) options.onEvent(event);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function reply(res: ServerResponse, status: number, text?: string): void {
  if (res.headersSent) return;
  res.writeHead(status, text ? { 'content-type': 'text/plain; charset=utf-8' } : {});
  res.end(text);
}
