// Upstream's event ids (webhook-ids.ts) in the shop's Durable Object, both sides of the wire: the
// isolate's call and the shop object's table, where seeing an id first is one step.
import type { WebhookIds } from './webhook-ids.js';
import { liveRow, type Call, type ShopCall, type ShopTables, type SqlStorage } from '../cluster/durable-wire.js';

export function durableWebhookIds(call: ShopCall): WebhookIds {
  return { firstDelivery: (webhookId, ttlMs) => call<boolean>('firstDelivery', { id: webhookId, ttlMs }) };
}

/** The webhook ids' table in the shop object. */
export class WebhookTables implements ShopTables {
  readonly schema = ['CREATE TABLE IF NOT EXISTS webhook (id TEXT PRIMARY KEY, until INTEGER NOT NULL)'];

  readonly operations = {
    firstDelivery: ({ now, id, ttlMs }: Call & { id: string; ttlMs: number }) => this.firstDelivery(now, id, ttlMs),
  };

  constructor(
    private readonly sql: SqlStorage,
    /** The shop object's sweep of every part (at most once a minute), which a delivery asks for first. */
    private readonly sweepAll: (now: number) => void,
  ) {}

  sweep(now: number): void {
    this.sql.exec('DELETE FROM webhook WHERE until <= ?', now);
  }

  private firstDelivery(now: number, id: string, ttlMs: number): boolean {
    this.sweepAll(now);
    if (liveRow(this.sql, 'webhook', 'id', id, now)) return false;
    this.sql.exec('INSERT OR REPLACE INTO webhook (id, until) VALUES (?, ?)', id, now + ttlMs);
    return true;
  }
}
