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
import type { HandoffConfirmation, HandoffPairing, HandoffReceipt, HandoffRecord } from '../photos/phone-handoffs.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { RateBucket } from '../limits/rate-limit.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { StatusRecord, StatusWrite } from '../tryons/status-store.js';
import type { UsageBook } from '../money/usage-book.js';
import type { Log } from '../operator/log.js';
import type { ProxyStore } from './store.js';

export class MemoryStore implements ProxyStore {
  readonly kind = 'memory' as const;
  private readonly statuses: MemoryTryonStatuses;
  private readonly webhooks = new MemoryWebhookIds();
  private readonly garments: MemoryGarmentIds;
  private readonly handoffs: MemoryHandoffs;
  private readonly buckets: MemoryRateBuckets;
  private ledger: SpendLedger | undefined;
  private book: UsageBook | undefined;

  constructor(options: { now?: () => number; fileIdCache?: FileIdCache | undefined; log?: Log } = {}) {
    const now = options.now ?? Date.now;
    this.statuses = new MemoryTryonStatuses(now);
    this.garments = new MemoryGarmentIds(now, { fileIdCache: options.fileIdCache, log: options.log });
    this.handoffs = new MemoryHandoffs(now);
    this.buckets = new MemoryRateBuckets(now);
  }

  readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return this.statuses.readStatus(jobId);
  }

  writeStatus(jobId: string, record: StatusRecord): Promise<StatusWrite> {
    return this.statuses.writeStatus(jobId, record);
  }

  seedStatus(jobId: string, record: StatusRecord): Promise<void> {
    return this.statuses.seedStatus(jobId, record);
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

  onPublished(): () => void {
    return this.statuses.onPublished();
  }

  firstDelivery(webhookId: string): Promise<boolean> {
    return this.webhooks.firstDelivery(webhookId);
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

  takeRequest(bucket: RateBucket, client: string, perMinute: number): Promise<number | undefined> {
    return this.buckets.takeRequest(bucket, client, perMinute);
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}
