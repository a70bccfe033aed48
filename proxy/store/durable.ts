// The store shared by every isolate of a Cloudflare Worker through Durable Objects: worker.ts
// builds it when the Worker has both bindings, TRYON_TRYONS (one object per try-on,
// tryons/status-store-durable.ts) and TRYON_SHOP (one object for the shop, durable-shop.ts). Each
// operation is one request to one object, which does it atomically, so every guard is exact
// however many isolates serve the shop. An object that cannot be reached is the shopper's 503
// store_unavailable, as Redis is on Node: nothing that spends or must agree goes on unguarded.
// Each part is its feature's Durable Object adapter; this store names the objects and runs the calls.
import { StoreOutages } from '../cluster/outages.js';
import {
  callObject,
  type DurableObjectNamespace,
  type DurableObjectStub,
  type ShopCall,
} from '../cluster/durable-wire.js';
import { DurableTryonStatuses } from '../tryons/status-store-durable.js';
import { durableWebhookIds } from '../upstream/webhook-ids-durable.js';
import { durableGarmentIds } from '../catalog/garment-ids-durable.js';
import { durableHandoffs } from '../photos/phone-handoffs-durable.js';
import { durableRevocations } from '../photos/revocations-durable.js';
import { durableRateBuckets } from '../limits/rate-buckets-durable.js';
import { durableSpendLedger } from '../money/spend-ledger-durable.js';
import { durableUsageBook } from '../money/usage-book-durable.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { UsageBook } from '../money/usage-book.js';
import type { Log } from '../operator/log.js';
import { durableTryonTimes } from '../timings/tryon-times-durable.js';
import { durableOrderBook } from '../orders/order-book-durable.js';
import type { OrderBook } from '../orders/order-book.js';
import { StoreOfParts } from './parts.js';
import type { ProxyStore } from './store.js';

export { TryonObject } from '../tryons/status-store-durable.js';
export { ShopObject } from './durable-shop.js';
export type { DurableObjectNamespace } from '../cluster/durable-wire.js';

export interface DurableStoreOptions {
  /** The shop object's name: one per deployment unless several shops share the namespace. */
  shop?: string;
  now?: () => number;
  log?: Log;
  /** How long a follower waits before asking its try-on's object again after the stream ended. */
  refollowMs?: number;
  /** Streams one try-on's object holds for all isolates together (limits.streamsPerTryon; 0: no cap). */
  followersPerTryon?: number;
}

export class DurableStore extends StoreOfParts implements ProxyStore {
  readonly kind = 'durable' as const;
  private readonly now: () => number;
  private readonly outages: StoreOutages;
  private readonly statuses: DurableTryonStatuses;
  /** One operation on the shop object, by its wire name. */
  private readonly onShop: ShopCall;

  constructor(
    tryons: DurableObjectNamespace,
    private readonly shop: DurableObjectNamespace,
    private readonly options: DurableStoreOptions = {},
  ) {
    super();
    this.now = options.now ?? Date.now;
    this.outages = new StoreOutages(options.log);
    this.onShop = (operation, args) => this.call(() => this.shopObject(), operation, args);
    this.statuses = new DurableTryonStatuses(tryons, (object, operation, args) => this.call(object, operation, args), {
      log: options.log,
      refollowMs: options.refollowMs,
      followersPerTryon: options.followersPerTryon,
    });
    this.parts = {
      statuses: this.statuses,
      webhooks: durableWebhookIds(this.onShop),
      garments: durableGarmentIds(this.onShop),
      handoffs: durableHandoffs(this.onShop),
      buckets: durableRateBuckets(this.onShop),
      times: durableTryonTimes(this.onShop),
    };
  }

  private shopObject(): DurableObjectStub {
    return this.shop.get(this.shop.idFromName(this.options.shop ?? 'shop'));
  }

  /**
   * One operation on one object; any failure is the shopper's 503 store_unavailable, said once in
   * the log. The object is reached inside that too: where the namespace is a binding over a
   * connection (Miniflare's, from Node), naming an object can fail like any call.
   */
  private async call<T>(
    object: () => DurableObjectStub,
    operation: string,
    args: Record<string, unknown> = {},
  ): Promise<T> {
    return this.outages.run(operation, () => callObject<T>(object(), operation, { now: this.now(), ...args }));
  }

  follow(jobId: string): () => void {
    return this.statuses.follow(jobId);
  }

  /** Forgotten photos and their submits under way in the shop object; decided by the caller's clock, as the memory store's. */
  photoRevocations(now: () => number): PhotoRevocations {
    return durableRevocations(this.onShop, now, this.now);
  }

  /** The spend ledger in the shop object: each reserve and settle one atomic step there. */
  spendLedger(limits: SpendLimits, now: () => number): SpendLedger {
    return durableSpendLedger(this.onShop, limits, now);
  }

  /** The usage book in the shop object: each write one step there, decided by the caller's clock. */
  usageBook(now: () => number): UsageBook {
    return durableUsageBook(this.onShop, now);
  }

  /** The order book in the shop object: each order, refund and exposure one step there. */
  orderBook(): OrderBook {
    return durableOrderBook(this.onShop);
  }

  async healthy(): Promise<boolean> {
    try {
      return await callObject<boolean>(this.shopObject(), 'ping', { now: this.now() });
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {}
}
