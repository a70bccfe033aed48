// The store of one process: the default, what `npm start` and a single `tryon-proxy` use. Every
// method does its work before its first await, so it is atomic on one event loop. Garment file
// ids may be kept in a FileIdCache (node.ts: a JSON file) so a restart does not upload again.
import type { FileIdCache } from '../catalog/garment-files.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import { MemorySpendLedger, type SpendLedger, type SpendLimits } from '../money/spend-ledger.js';
import { MemoryUsageBook, type UsageBook } from '../money/usage-book.js';
import {
  confirmationFor,
  receiptFor,
  type HandoffConfirmation,
  type HandoffPairing,
  type HandoffReceipt,
  type HandoffRecord,
} from '../photos/handoffs.js';
import { mergeStatus, type ProxyStore, type RateBucket, type StatusRecord, type StatusWrite } from './store.js';

/** How many try-ons are remembered; the oldest go first. */
const MAX_TRYONS = 20_000;
/** How many recent webhook ids are remembered to drop redeliveries and replays. */
const REMEMBERED_WEBHOOKS = 2000;

export class MemoryStore implements ProxyStore {
  readonly kind = 'memory' as const;
  private readonly statuses = new Map<string, StatusRecord>();
  private readonly polls = new Map<string, number>();
  private readonly webhooks = new Set<string>();
  private readonly garments = new Map<string, string>();
  private readonly garmentLocks = new Map<string, { token: string; until: number }>();
  /** Hand-offs by code, and each one's code by its id, with when each is dropped. */
  private readonly handoffs = new Map<string, { record: HandoffRecord; until: number }>();
  private readonly handoffCodes = new Map<string, string>();
  private readonly buckets = { writes: new Map<string, Bucket>(), reads: new Map<string, Bucket>() };
  private ledger: SpendLedger | undefined;
  private book: UsageBook | undefined;
  private garmentsLoaded?: Promise<void>;
  private readonly now: () => number;

  constructor(
    private readonly options: {
      now?: () => number;
      fileIdCache?: FileIdCache | undefined;
      log?: (entry: Record<string, unknown>) => void;
    } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return this.statuses.get(jobId);
  }

  async writeStatus(jobId: string, record: StatusRecord): Promise<StatusWrite> {
    const written = mergeStatus(this.statuses.get(jobId), record);
    this.remember(jobId, written.record);
    return written;
  }

  async seedStatus(jobId: string, record: StatusRecord): Promise<void> {
    if (!this.statuses.has(jobId)) this.remember(jobId, record);
  }

  private remember(jobId: string, record: StatusRecord): void {
    this.statuses.set(jobId, record);
    if (this.statuses.size > MAX_TRYONS) {
      for (const id of this.statuses.keys()) {
        this.statuses.delete(id);
        this.polls.delete(id);
        if (this.statuses.size <= MAX_TRYONS * 0.9) break;
      }
    }
  }

  async claimPoll(jobId: string, ms: number): Promise<boolean> {
    const now = this.now();
    if ((this.polls.get(jobId) ?? -Infinity) > now) return false;
    this.polls.set(jobId, now + ms);
    return true;
  }

  async releasePoll(jobId: string): Promise<void> {
    this.polls.delete(jobId);
  }

  /** One process: the board delivers its own snapshots; there is no other instance to tell. */
  async publish(): Promise<void> {}

  onPublished(): () => void {
    return () => undefined;
  }

  async firstDelivery(webhookId: string): Promise<boolean> {
    if (this.webhooks.has(webhookId)) return false;
    this.webhooks.add(webhookId);
    if (this.webhooks.size > REMEMBERED_WEBHOOKS) this.webhooks.delete(this.webhooks.values().next().value as string);
    return true;
  }

  async garmentId(key: string): Promise<string | undefined> {
    await this.loadGarments();
    return this.garments.get(key);
  }

  async saveGarmentId(key: string, fileId: string): Promise<void> {
    await this.loadGarments();
    this.garments.set(key, fileId);
    await this.persistGarments();
  }

  async forgetGarmentId(key: string, fileId: string): Promise<void> {
    await this.loadGarments();
    if (this.garments.get(key) !== fileId) return;
    this.garments.delete(key);
    await this.persistGarments();
  }

  async lockGarment(key: string, ms: number): Promise<string | undefined> {
    const now = this.now();
    const held = this.garmentLocks.get(key);
    if (held && held.until > now) return undefined;
    const token = crypto.randomUUID();
    this.garmentLocks.set(key, { token, until: now + ms });
    return token;
  }

  async unlockGarment(key: string, token: string): Promise<void> {
    if (this.garmentLocks.get(key)?.token === token) this.garmentLocks.delete(key);
  }

  private loadGarments(): Promise<void> {
    this.garmentsLoaded ??= (async () => {
      if (!this.options.fileIdCache) return;
      try {
        const saved = await this.options.fileIdCache.load();
        for (const [key, id] of Object.entries(saved)) {
          if (typeof id === 'string' && !this.garments.has(key)) this.garments.set(key, id);
        }
      } catch (error) {
        this.options.log?.({ level: 'warn', event: 'file_id_cache_unreadable', message: (error as Error).message });
      }
    })();
    return this.garmentsLoaded;
  }

  private async persistGarments(): Promise<void> {
    if (!this.options.fileIdCache) return;
    await this.options.fileIdCache
      .save(Object.fromEntries(this.garments))
      .catch((error: Error) =>
        this.options.log?.({ level: 'warn', event: 'file_id_cache_unwritable', message: error.message }),
      );
  }

  async createHandoff(record: HandoffRecord, keepMs: number): Promise<void> {
    this.sweepHandoffs();
    this.handoffs.set(record.code, { record: { ...record }, until: record.expiresAt + keepMs });
    this.handoffCodes.set(record.id, record.code);
  }

  async readHandoff(id: string): Promise<HandoffRecord | undefined> {
    const code = this.handoffCodes.get(id);
    return code === undefined ? undefined : this.handoffByCode(code);
  }

  async handoffByCode(code: string): Promise<HandoffRecord | undefined> {
    const held = this.handoffs.get(code);
    return held && held.until > this.now() ? { ...held.record } : undefined;
  }

  async receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt> {
    const held = this.handoffs.get(code);
    const receipt = receiptFor(held && held.until > now ? held.record : undefined, now);
    if (receipt !== 'waiting') return receipt;
    Object.assign(held!.record, { photo, ...pairing });
    return 'received';
  }

  async confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation> {
    const code = this.handoffCodes.get(id);
    const held = code === undefined ? undefined : this.handoffs.get(code);
    const { confirmation, write } = confirmationFor(held && held.until > now ? held.record : undefined, number, now);
    if (write) Object.assign(held!.record, write);
    return confirmation;
  }

  /** Hand-offs past their keeping are dropped as new ones come, so memory stays bounded by the rate limit. */
  private sweepHandoffs(): void {
    const now = this.now();
    for (const [code, held] of this.handoffs) {
      if (held.until > now) continue;
      this.handoffs.delete(code);
      this.handoffCodes.delete(held.record.id);
    }
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

  /** A token bucket per client, refilled smoothly. */
  async takeRequest(bucketName: RateBucket, client: string, perMinute: number): Promise<number | undefined> {
    if (perMinute <= 0) return undefined;
    const buckets = this.buckets[bucketName];
    const now = this.now();
    const refillPerMs = perMinute / 60_000;
    const bucket = buckets.get(client) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * refillPerMs);
    bucket.at = now;
    if (bucket.tokens < 1) {
      buckets.set(client, bucket);
      return Math.ceil((1 - bucket.tokens) / refillPerMs / 1000);
    }
    bucket.tokens -= 1;
    buckets.delete(client);
    buckets.set(client, bucket);
    if (buckets.size > 50_000) {
      for (const [id, held] of buckets) {
        if (held.tokens + (now - held.at) * refillPerMs >= perMinute) buckets.delete(id);
        if (buckets.size <= 25_000) break;
      }
    }
    return undefined;
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

interface Bucket {
  tokens: number;
  at: number;
}

/** How often, at most, the in-memory revocations sweep out records that have outlived their handles. */
const SWEEP_EVERY_MS = 60_000;

/** Forgotten photos for one process (photos/revocations.ts says what forgetting means). */
export class PhotoRevocationsInMemory implements PhotoRevocations {
  private readonly until = new Map<string, number>();
  /** Per photo, the tickets of submits under way and when each lapses. */
  private readonly submits = new Map<string, Map<string, number>>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async revoke(photoId: string, until: number): Promise<void> {
    this.sweep();
    if (until <= this.now()) return;
    this.until.set(photoId, Math.max(this.until.get(photoId) ?? 0, until));
  }

  async isRevoked(photoId: string): Promise<boolean> {
    return this.revoked(photoId);
  }

  /** Synchronous, so beginSubmit checks and counts in one step on the event loop. */
  private revoked(photoId: string): boolean {
    const until = this.until.get(photoId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(photoId);
    return false;
  }

  async beginSubmit(photoId: string, ms: number): Promise<string | undefined> {
    if (this.revoked(photoId)) return undefined;
    const ticket = crypto.randomUUID();
    const tickets = this.submits.get(photoId) ?? new Map<string, number>();
    tickets.set(ticket, this.now() + ms);
    this.submits.set(photoId, tickets);
    return ticket;
  }

  async endSubmit(photoId: string, ticket: string): Promise<void> {
    const tickets = this.submits.get(photoId);
    tickets?.delete(ticket);
    if (tickets?.size === 0) this.submits.delete(photoId);
  }

  async submitsUnderWay(photoId: string): Promise<number> {
    const tickets = this.submits.get(photoId);
    if (!tickets) return 0;
    const now = this.now();
    for (const [ticket, lapses] of tickets) if (lapses <= now) tickets.delete(ticket);
    if (tickets.size === 0) this.submits.delete(photoId);
    return tickets.size;
  }

  /** Records held now (for tests and metrics). */
  get size(): number {
    return this.until.size;
  }

  private sweep(): void {
    const now = this.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [photoId, until] of this.until) if (until <= now) this.until.delete(photoId);
  }
}
