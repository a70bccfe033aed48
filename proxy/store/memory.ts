// The store of one process: the default, what `npm start` and a single `tryon-proxy` use. Each part
// is its feature's memory adapter, where every method does its work before its first await, so it
// is atomic on one event loop. Garment file ids may be kept in a FileIdCache (node.ts: a JSON file)
// so a restart does not upload again.
import { MemoryTryonStatuses } from '../tryons/status-store-memory.js';
import { MemoryWebhookIds } from '../upstream/webhook-ids-memory.js';
import { MemoryGarmentIds } from '../catalog/garment-ids-memory.js';
import { MemoryHandoffs } from '../photos/phone-handoffs-memory.js';
import { PhotoRevocationsInMemory } from '../photos/revocations-memory.js';
import { MemoryRateBuckets } from '../limits/rate-buckets-memory.js';
import { MemorySpendLedger } from '../money/spend-ledger-memory.js';
import { MemoryUsageBook } from '../money/usage-book-memory.js';
import type { FileIdCache } from '../catalog/garment-ids.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { UsageBook } from '../money/usage-book.js';
import type { Log } from '../operator/log.js';
import { MemoryTryonTimes } from '../timings/tryon-times-memory.js';
import { MemoryOrderBook } from '../orders/order-book-memory.js';
import type { OrderBook } from '../orders/order-book.js';
import { StoreOfParts } from './parts.js';
import type { ProxyStore } from './store.js';

export class MemoryStore extends StoreOfParts implements ProxyStore {
  readonly kind = 'memory' as const;
  private ledger: SpendLedger | undefined;
  private book: UsageBook | undefined;
  private orders: OrderBook | undefined;

  constructor(options: { now?: () => number; fileIdCache?: FileIdCache | undefined; log?: Log } = {}) {
    super();
    const now = options.now ?? Date.now;
    this.parts = {
      statuses: new MemoryTryonStatuses(now),
      webhooks: new MemoryWebhookIds(),
      garments: new MemoryGarmentIds(now, { fileIdCache: options.fileIdCache, log: options.log }),
      handoffs: new MemoryHandoffs(now),
      buckets: new MemoryRateBuckets(now),
      times: new MemoryTryonTimes(),
    };
  }

  photoRevocations(now: () => number): PhotoRevocations {
    return new PhotoRevocationsInMemory(now);
  }

  /** One ledger per store, so every reader (the app, the admin listener's /usage) sees the same day, as on Redis. */
  spendLedger(limits: SpendLimits, now: () => number): SpendLedger {
    this.ledger ??= new MemorySpendLedger(limits, now);
    return this.ledger;
  }

  /** One book per store, for the same reason as the ledger. */
  usageBook(now: () => number): UsageBook {
    this.book ??= new MemoryUsageBook(now);
    return this.book;
  }

  /** One order book per store, for the same reason: the admin listener's POST /orders and the app's webhooks count into one. */
  orderBook(now: () => number): OrderBook {
    this.orders ??= new MemoryOrderBook(now);
    return this.orders;
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}
