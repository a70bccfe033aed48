// Upstream's event ids already seen, for every instance: a webhook delivered again (upstream
// retries keep its id) or replayed is acknowledged, not applied twice (routes/webhooks.ts). The
// store's part, the same in every store (webhook-ids-memory.ts, -redis.ts, -durable.ts).

export interface WebhookIds {
  /** True the first time a webhook id is seen in the cluster; a redelivery answers false. */
  firstDelivery(webhookId: string, ttlMs: number): Promise<boolean>;
}
