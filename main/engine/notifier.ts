// Webhooks of the engine: when told a URL (and optionally a Standard Webhooks secret), it watches every
// unfinished session and sends a signed notification on each status change. Sessions of the older
// image-to-3D flow use the older `{type, payload}` form; all others `session_status_changed`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import type { EndpointId } from '../../shared/contract/index.ts';
import { webhookHeaders } from '../formats/webhook-signature.ts';
import type { Handlers } from './router.ts';
import type { EngineState } from './state.ts';

export interface WebhookTarget {
  url: string;
  secret?: string | undefined;
}

export interface Notifier {
  /** Sets (or with undefined, removes) where notifications go. */
  configure(target: WebhookTarget | undefined): void;
  readonly target: WebhookTarget | undefined;
  /** Notifications sent so far. */
  readonly sent: number;
  stop(): Promise<void>;
}

interface Watched {
  table: keyof Pick<EngineState, 'imageTo3d' | 'textToImage' | 'animations' | 'retopology' | 'generations'>;
  read: EndpointId;
  param: 'session_code' | 'session_id';
}

const WATCHED: Watched[] = [
  { table: 'imageTo3d', read: 'getImageTo3d', param: 'session_code' },
  { table: 'textToImage', read: 'getTextToImage', param: 'session_code' },
  { table: 'animations', read: 'getAnimation', param: 'session_code' },
  { table: 'retopology', read: 'getV3Session', param: 'session_id' },
  // /v3 image_to_3d, image_to_kit and multiview_to_3d sessions.
  { table: 'generations', read: 'getV3Session', param: 'session_id' },
];

const FINAL = /^(complete|completed|failed|refine_done|predefined_done|text_done)$|_failed$/;
// The older flow's statuses, with the names it has at the base address (training_preview, training_refine).
const OLDER_FLOW = /^(uploaded|spin_generate_|preview_|refine_|training_)/;

export function startNotifier(deps: {
  state: EngineState;
  handlers: Handlers;
  intervalMs: number;
  log: (line: string) => void;
}): Notifier {
  const last = new Map<string, string>();
  let target: WebhookTarget | undefined;
  let sent = 0;
  let stopped = false;
  const deliveries = new Set<Promise<void>>();

  /** The status a client would read now, plus the prompts' statuses for animation sessions. */
  async function look(w: Watched, id: string, userId: string): Promise<{ status: string; digest: string } | undefined> {
    const handler = deps.handlers[w.read] as (call: unknown) => Promise<Record<string, unknown>>;
    const read = await handler({
      userId,
      now: Date.now(),
      params: { [w.param]: id },
      body: undefined,
      query: undefined,
      req: undefined as unknown as IncomingMessage,
    });
    const status = String(read.session_status ?? read.status ?? '');
    const prompts = Array.isArray(read.prompts)
      ? (read.prompts as { status: string }[]).map((p) => p.status).join(',')
      : '';
    return { status, digest: `${status}|${prompts}` };
  }

  async function tick(): Promise<void> {
    if (!target) return;
    for (const w of WATCHED) {
      for (const [id, rec] of Object.entries(deps.state[w.table] as Record<string, { user_id: string }>)) {
        const key = `${w.table}:${id}`;
        const before = last.get(key);
        // Finished sessions stay quiet; an animation session can still get new text prompts.
        if (before !== undefined && w.table !== 'animations' && FINAL.test(before.split('|')[0]!)) continue;
        const seen = await look(w, id, rec.user_id).catch(() => undefined);
        if (!seen || seen.digest === before) continue;
        last.set(key, seen.digest);
        if (before !== undefined && target) send(target, id, before.split('|')[0]!, seen.status);
      }
    }
  }

  function send(to: WebhookTarget, sessionId: string, oldStatus: string, newStatus: string): void {
    const payload = OLDER_FLOW.test(newStatus)
      ? { type: newStatus, payload: { session_code: sessionId, status: newStatus } }
      : { type: 'session_status_changed', session_id: sessionId, old_status: oldStatus, new_status: newStatus };
    const body = JSON.stringify(payload);
    const id = `msg_${randomBytes(12).toString('hex')}`;
    const headers = {
      'content-type': 'application/json',
      ...(to.secret ? webhookHeaders(to.secret, id, body) : { 'webhook-id': id }),
    };
    const delivery = (async () => {
      for (let attempt = 0; attempt < 3 && !stopped; attempt++) {
        try {
          const res = await request(to.url, {
            method: 'POST',
            headers,
            body,
            headersTimeout: 5_000,
            bodyTimeout: 5_000,
            signal: AbortSignal.timeout(10_000), // the whole delivery, answer included
          });
          await res.body.dump(); // at most 128 KiB of the receiver's answer is read, the rest dropped
          if (res.statusCode < 500) {
            sent++;
            return;
          }
        } catch {
          // retried below
        }
        await delay(200 * 2 ** attempt);
      }
      deps.log(`webhook to ${to.url} for ${sessionId} could not be delivered`);
    })();
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
  }

  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(tick).catch((error: unknown) => deps.log(`webhook watcher: ${String(error)}`));
  }, deps.intervalMs);
  timer.unref();

  return {
    configure(next) {
      target = next;
    },
    get target() {
      return target;
    },
    get sent() {
      return sent;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await Promise.allSettled(deliveries);
    },
  };
}
