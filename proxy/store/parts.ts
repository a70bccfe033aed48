// What every store does the same way: each feature's calls handed to that feature's adapter. The
// memory, Redis and Durable Objects stores differ only in the adapters they build (and in the spend
// ledger, usage book and revocations they make on demand), so the hand-over is written once, here,
// and a method added to a feature's part of the store is added to every backend at once.
import type { GarmentIdStore } from '../catalog/garment-ids.js';
import type { RateBucket, RateBuckets } from '../limits/rate-limit.js';
import type {
  HandoffConfirmation,
  HandoffPairing,
  HandoffReceipt,
  HandoffRecord,
  HandoffStore,
} from '../photos/phone-handoffs.js';
import type { TryonSnapshot } from '../tryons/snapshot.js';
import type { StatusRecord, StatusWrite, TryonStatusStore } from '../tryons/status-store.js';
import type { WebhookIds } from '../upstream/webhook-ids.js';
import type { TryonTimeStore } from '../timings/tryon-times.js';

/** The adapters a backend builds, one per feature. */
export interface StoreParts {
  statuses: TryonStatusStore;
  webhooks: WebhookIds;
  garments: GarmentIdStore;
  handoffs: HandoffStore;
  buckets: RateBuckets;
  times: TryonTimeStore;
}

export abstract class StoreOfParts
  implements TryonStatusStore, WebhookIds, GarmentIdStore, HandoffStore, RateBuckets, TryonTimeStore
{
  /** Set by each store's constructor once it has built its adapters, before anyone can call it. */
  protected parts!: StoreParts;

  readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return this.parts.statuses.readStatus(jobId);
  }

  writeStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<StatusWrite> {
    return this.parts.statuses.writeStatus(jobId, record, ttlMs);
  }

  seedStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<void> {
    return this.parts.statuses.seedStatus(jobId, record, ttlMs);
  }

  claimPoll(jobId: string, ms: number): Promise<boolean> {
    return this.parts.statuses.claimPoll(jobId, ms);
  }

  releasePoll(jobId: string): Promise<void> {
    return this.parts.statuses.releasePoll(jobId);
  }

  publish(jobId: string, snapshot: TryonSnapshot): Promise<void> {
    return this.parts.statuses.publish(jobId, snapshot);
  }

  onPublished(listener: (jobId: string, snapshot: TryonSnapshot) => void): () => void {
    return this.parts.statuses.onPublished(listener);
  }

  firstDelivery(webhookId: string, ttlMs: number): Promise<boolean> {
    return this.parts.webhooks.firstDelivery(webhookId, ttlMs);
  }

  garmentId(key: string): Promise<string | undefined> {
    return this.parts.garments.garmentId(key);
  }

  saveGarmentId(key: string, fileId: string): Promise<void> {
    return this.parts.garments.saveGarmentId(key, fileId);
  }

  forgetGarmentId(key: string, fileId: string): Promise<void> {
    return this.parts.garments.forgetGarmentId(key, fileId);
  }

  lockGarment(key: string, ms: number): Promise<string | undefined> {
    return this.parts.garments.lockGarment(key, ms);
  }

  unlockGarment(key: string, token: string): Promise<void> {
    return this.parts.garments.unlockGarment(key, token);
  }

  createHandoff(record: HandoffRecord, keepMs: number): Promise<void> {
    return this.parts.handoffs.createHandoff(record, keepMs);
  }

  readHandoff(id: string): Promise<HandoffRecord | undefined> {
    return this.parts.handoffs.readHandoff(id);
  }

  handoffByCode(code: string): Promise<HandoffRecord | undefined> {
    return this.parts.handoffs.handoffByCode(code);
  }

  receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt> {
    return this.parts.handoffs.receiveHandoff(code, photo, pairing, now);
  }

  confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation> {
    return this.parts.handoffs.confirmHandoff(id, number, now);
  }

  takeRequest(bucket: RateBucket, client: string, perMinute: number): Promise<number | undefined> {
    return this.parts.buckets.takeRequest(bucket, client, perMinute);
  }

  addTryonTime(kind: string, seconds: number, keep: number): Promise<void> {
    return this.parts.times.addTryonTime(kind, seconds, keep);
  }

  tryonTimes(kinds: readonly string[]): Promise<number[][]> {
    return this.parts.times.tryonTimes(kinds);
  }
}
