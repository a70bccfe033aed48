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
import type { GarmentIdStore } from '../catalog/garment-ids.js';
import type {
  HandoffConfirmation,
  HandoffPairing,
  HandoffReceipt,
  HandoffRecord,
  HandoffStore,
} from '../photos/phone-handoffs.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { RateBucket, RateBuckets } from '../limits/rate-limit.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { StatusRecord, StatusWrite } from '../tryons/status-store.js';
import type { TryonSnapshot } from '../tryons/snapshot.js';
import type { UsageBook } from '../money/usage-book.js';
import type { WebhookIds } from '../upstream/webhook-ids.js';
import type { Log } from '../operator/log.js';
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

export class DurableStore implements ProxyStore {
  readonly kind = 'durable' as const;
  private readonly now: () => number;
  private readonly outages: StoreOutages;
  private readonly statuses: DurableTryonStatuses;
  private readonly webhooks: WebhookIds;
  private readonly garments: GarmentIdStore;
  private readonly handoffs: HandoffStore;
  private readonly buckets: RateBuckets;
  /** One operation on the shop object, by its wire name. */
  private readonly onShop: ShopCall;

  constructor(
    tryons: DurableObjectNamespace,
    private readonly shop: DurableObjectNamespace,
    private readonly options: DurableStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.outages = new StoreOutages(options.log);
    this.onShop = (operation, args) => this.call(() => this.shopObject(), operation, args);
    this.statuses = new DurableTryonStatuses(tryons, (object, operation, args) => this.call(object, operation, args), {
      log: options.log,
      refollowMs: options.refollowMs,
      followersPerTryon: options.followersPerTryon,
    });
    this.webhooks = durableWebhookIds(this.onShop);
    this.garments = durableGarmentIds(this.onShop);
    this.handoffs = durableHandoffs(this.onShop);
    this.buckets = durableRateBuckets(this.onShop);
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

  readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return this.statuses.readStatus(jobId);
  }

  /** Writes, and in the same step tells the other isolates' followers when the snapshot won. */
  writeStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<StatusWrite> {
    return this.statuses.writeStatus(jobId, record, ttlMs);
  }

  seedStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<void> {
    return this.statuses.seedStatus(jobId, record, ttlMs);
  }

  claimPoll(jobId: string, ms: number): Promise<boolean> {
    return this.statuses.claimPoll(jobId, ms);
  }

  releasePoll(jobId: string): Promise<void> {
    return this.statuses.releasePoll(jobId);
  }

  publish(): Promise<void> {
    return this.statuses.publish();
  }

  onPublished(listener: (jobId: string, snapshot: TryonSnapshot) => void): () => void {
    return this.statuses.onPublished(listener);
  }

  follow(jobId: string): () => void {
    return this.statuses.follow(jobId);
  }

  firstDelivery(webhookId: string, ttlMs: number): Promise<boolean> {
    return this.webhooks.firstDelivery(webhookId, ttlMs);
  }

  garmentId(key: string): Promise<string | undefined> {
    return this.garments.garmentId(key);
  }

  saveGarmentId(key: string, fileId: string): Promise<void> {
    return this.garments.saveGarmentId(key, fileId);
  }

  forgetGarmentId(key: string, fileId: string): Promise<void> {
    return this.garments.forgetGarmentId(key, fileId);
  }

  lockGarment(key: string, ms: number): Promise<string | undefined> {
    return this.garments.lockGarment(key, ms);
  }

  unlockGarment(key: string, token: string): Promise<void> {
    return this.garments.unlockGarment(key, token);
  }

  createHandoff(record: HandoffRecord, keepMs: number): Promise<void> {
    return this.handoffs.createHandoff(record, keepMs);
  }

  readHandoff(id: string): Promise<HandoffRecord | undefined> {
    return this.handoffs.readHandoff(id);
  }

  handoffByCode(code: string): Promise<HandoffRecord | undefined> {
    return this.handoffs.handoffByCode(code);
  }

  receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt> {
    return this.handoffs.receiveHandoff(code, photo, pairing, now);
  }

  confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation> {
    return this.handoffs.confirmHandoff(id, number, now);
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

  takeRequest(bucket: RateBucket, client: string, perMinute: number): Promise<number | undefined> {
    return this.buckets.takeRequest(bucket, client, perMinute);
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
