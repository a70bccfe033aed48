// The store: everything the proxy's instances must agree on, behind one interface, so one process
// (store/memory.ts, the default), many processes sharing Redis (store/redis.ts, Node only) and
// many Workers isolates sharing Durable Objects (store/durable.ts) behave the same. Per-instance
// caches that cannot disagree (minted handles, in-flight promises, an instance's own SSE
// listeners) stay in the modules that use them; docs/proxy.md lists both.
//
// Each part of it belongs to a feature, which says what it needs of a store and holds its memory,
// Redis and Durable Object adapters beside it (tryons/status-store*.ts, photos/phone-handoffs*.ts,
// photos/revocations*.ts, catalog/garment-ids*.ts, upstream/webhook-ids*.ts, limits/rate-buckets*.ts,
// money/spend-ledger*.ts, money/usage-book*.ts, timings/tryon-times*.ts, orders/order-book*.ts). This folder only puts the parts together, so it
// sits above the features and none of them imports it.
import type { TryonStatusStore } from '../tryons/status-store.js';
import type { WebhookIds } from '../upstream/webhook-ids.js';
import type { GarmentIdStore } from '../catalog/garment-ids.js';
import type { HandoffStore } from '../photos/phone-handoffs.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { RateBuckets } from '../limits/rate-limit.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { UsageBook } from '../money/usage-book.js';
import type { TryonTimeStore } from '../timings/tryon-times.js';
import type { OrderBook } from '../orders/order-book.js';

export interface ProxyStore
  extends TryonStatusStore, WebhookIds, GarmentIdStore, HandoffStore, RateBuckets, TryonTimeStore {
  /** `memory` (one process), `redis` or `durable` (shared): /health says whether a shared one answers. */
  readonly kind: 'memory' | 'redis' | 'durable';

  /** Forgotten photos ("Forget my photo", photos/revocations.ts) kept in this store. */
  photoRevocations(now: () => number): PhotoRevocations;

  /** The spend ledger (budgets and caps, spend-ledger.ts) kept in this store. */
  spendLedger(limits: SpendLimits, now: () => number): SpendLedger;

  /** The usage book (what was spent, day by day, for GET /usage; usage-book.ts) kept in this store. */
  usageBook(now: () => number): UsageBook;

  /** The order book (orders, refunds and exposures for the lift report, orders/order-book.ts) kept in this store. */
  orderBook(now: () => number): OrderBook;

  /** Whether the store answers now (for /health). */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}
