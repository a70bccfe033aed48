// Upstream's event ids (webhook-ids.ts) for one process: the most recent ones only, so memory
// stays bounded however many events come.
import type { WebhookIds } from './webhook-ids.js';

/** How many recent webhook ids are remembered to drop redeliveries and replays. */
const REMEMBERED_WEBHOOKS = 2000;

export class MemoryWebhookIds implements WebhookIds {
  private readonly webhooks = new Set<string>();

  async firstDelivery(webhookId: string): Promise<boolean> {
    if (this.webhooks.has(webhookId)) return false;
    this.webhooks.add(webhookId);
    if (this.webhooks.size > REMEMBERED_WEBHOOKS) this.webhooks.delete(this.webhooks.values().next().value as string);
    return true;
  }
}
