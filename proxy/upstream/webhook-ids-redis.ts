// Upstream's event ids (webhook-ids.ts) on Redis: SET NX PX, so exactly one instance in the
// cluster sees a delivery first.
import type { Redis } from 'ioredis';
import { keyOf } from '../cluster/redis-keys.js';
import type { StoreRun } from '../cluster/outages.js';
import type { WebhookIds } from './webhook-ids.js';

export class RedisWebhookIds implements WebhookIds {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: StoreRun,
  ) {}

  private key(kind: string, id: string): string {
    return keyOf(this.prefix, kind, id);
  }

  async firstDelivery(webhookId: string, ttlMs: number): Promise<boolean> {
    return this.run(
      'webhook_id',
      async () =>
        (await this.redis.set(this.key('webhook', webhookId), '1', 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) ===
        'OK',
    );
  }
}
