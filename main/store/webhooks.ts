// Table `webhook_deliveries`: the ids of webhook deliveries already handled, so a redelivery is ignored.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export interface Delivery {
  sessionId?: string | null;
  eventType?: string | null;
  now: number;
}

export class WebhooksRepository {
  readonly #record: StatementSync;
  readonly #prune: StatementSync;

  constructor(db: DatabaseSync) {
    this.#record = db.prepare(`
      INSERT OR IGNORE INTO webhook_deliveries (webhook_id, received_at, session_id, event_type)
      VALUES (:webhook_id, :now, :session_id, :event_type)`);
    this.#prune = db.prepare('DELETE FROM webhook_deliveries WHERE received_at < :cutoff');
  }

  /** True when this delivery id is new (and is now recorded); false for a redelivery. One atomic statement. */
  recordIfNew(webhookId: string, delivery: Delivery): boolean {
    const { changes } = this.#record.run({
      webhook_id: webhookId,
      now: delivery.now,
      session_id: delivery.sessionId ?? null,
      event_type: delivery.eventType ?? null,
    });
    return Number(changes) === 1;
  }

  /** Forgets deliveries received more than `olderThanMs` before `now`; returns how many. */
  prune(olderThanMs: number, now: number): number {
    return Number(this.#prune.run({ cutoff: now - olderThanMs }).changes);
  }
}
