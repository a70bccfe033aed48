// The store shared by every isolate of a Cloudflare Worker through Durable Objects: worker.ts
// builds it when the Worker has both bindings, TRYON_TRYONS (one object per try-on,
// durable-tryon.ts) and TRYON_SHOP (one object for the shop, durable-shop.ts). Each operation is
// one request to one object, which does it atomically, so every guard is exact however many
// isolates serve the shop. An object that cannot be reached is the shopper's 503
// store_unavailable, as Redis is on Node: nothing that spends or must agree goes on unguarded.
import type { TryonSnapshot } from '../tryons/snapshot.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import { utcDay } from '../money/spend-ledger.js';
import { USAGE_DAYS, dayOf, lastDays, startCounters, type UsageBook, type UsageCounters } from '../money/usage-book.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { HandoffConfirmation, HandoffPairing, HandoffReceipt, HandoffRecord } from '../photos/handoffs.js';
import { StoreOutages, type ProxyStore, type RateBucket, type StatusRecord, type StatusWrite } from './store.js';
import { callObject, limitToWire, type DurableObjectNamespace, type DurableObjectStub } from './durable-wire.js';
import type { WireLimits } from './durable-shop.js';
import { DEFAULT_LIMITS } from '../limits/limits.js';

export { TryonObject } from './durable-tryon.js';
export { ShopObject } from './durable-shop.js';
export type { DurableObjectNamespace } from './durable-wire.js';

export interface DurableStoreOptions {
  /** The shop object's name: one per deployment unless several shops share the namespace. */
  shop?: string;
  now?: () => number;
  log?: (entry: Record<string, unknown>) => void;
  /** How long a follower waits before asking its try-on's object again after the stream ended. */
  refollowMs?: number;
  /** Streams one try-on's object holds for all isolates together (limits.streamsPerTryon; 0: no cap). */
  followersPerTryon?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class DurableStore implements ProxyStore {
  readonly kind = 'durable' as const;
  /** Tells this isolate's own writes from the others' in a try-on's stream. */
  private readonly instance = crypto.randomUUID();
  private readonly listeners = new Set<(jobId: string, snapshot: TryonSnapshot) => void>();
  private readonly now: () => number;
  private readonly outages: StoreOutages;

  constructor(
    private readonly tryons: DurableObjectNamespace,
    private readonly shop: DurableObjectNamespace,
    private readonly options: DurableStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.outages = new StoreOutages(options.log);
  }

  // A stub per call: stubs are cheap, and one made for an earlier request is not used in a later one.
  private tryonObject(jobId: string): DurableObjectStub {
    return this.tryons.get(this.tryons.idFromName(jobId));
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

  async readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return (await this.call<StatusRecord | null>(() => this.tryonObject(jobId), 'read')) ?? undefined;
  }

  /** Writes, and in the same step tells the other isolates' followers when the snapshot won. */
  async writeStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<StatusWrite> {
    return this.call<StatusWrite>(() => this.tryonObject(jobId), 'write', { record, ttlMs, from: this.instance });
  }

  async seedStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<void> {
    await this.call(() => this.tryonObject(jobId), 'seed', { record, ttlMs });
  }

  async claimPoll(jobId: string, ms: number): Promise<boolean> {
    return this.call<boolean>(() => this.tryonObject(jobId), 'claimPoll', { ms, holder: this.instance });
  }

  async releasePoll(jobId: string): Promise<void> {
    await this.call(() => this.tryonObject(jobId), 'releasePoll', { holder: this.instance });
  }

  /** writeStatus told the followers already: the object fans out in the same step as it stores. */
  async publish(): Promise<void> {}

  onPublished(listener: (jobId: string, snapshot: TryonSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Holds a stream from the try-on's object until the returned function is called, handing each
   * record it sends to onPublished's listeners. A stream that ends early (the object restarted)
   * is opened again; the board's own reads cover the moments between.
   */
  follow(jobId: string): () => void {
    let stopped = false;
    let reader: ReadableStreamDefaultReader<string> | undefined;
    void (async () => {
      while (!stopped) {
        try {
          const response = await this.tryonObject(jobId).fetch(
            `https://tryon-store/follow?isolate=${this.instance}&max=${this.options.followersPerTryon ?? DEFAULT_LIMITS.streamsPerTryon}`,
          );
          if (response.status === 429) {
            // The object holds its cap of followers: this watcher hears changes by its isolate's polling only.
            void response.body?.cancel();
            this.options.log?.({ level: 'warn', event: 'store_follow_refused', reason: 'too_many_streams' });
            break;
          }
          if (!response.ok || !response.body) throw new Error(`follow: HTTP ${response.status}`);
          reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          if (stopped) break;
          let rest = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const lines = (rest + value).split('\n');
            rest = lines.pop() ?? '';
            for (const line of lines) this.hand(jobId, (JSON.parse(line) as StatusRecord).snapshot);
          }
        } catch (error) {
          if (!stopped)
            this.options.log?.({ level: 'warn', event: 'store_follow_ended', message: (error as Error).message });
        }
        if (!stopped) await sleep(this.options.refollowMs ?? 1_000);
      }
      void reader?.cancel().catch(() => undefined);
    })();
    return () => {
      stopped = true;
      void reader?.cancel().catch(() => undefined);
    };
  }

  private hand(jobId: string, snapshot: TryonSnapshot): void {
    for (const listener of this.listeners) listener(jobId, snapshot);
  }

  async firstDelivery(webhookId: string, ttlMs: number): Promise<boolean> {
    return this.call<boolean>(() => this.shopObject(), 'firstDelivery', { id: webhookId, ttlMs });
  }

  async garmentId(key: string): Promise<string | undefined> {
    return (await this.call<string | null>(() => this.shopObject(), 'garmentId', { key })) ?? undefined;
  }

  async saveGarmentId(key: string, fileId: string): Promise<void> {
    await this.call(() => this.shopObject(), 'saveGarmentId', { key, fileId });
  }

  async forgetGarmentId(key: string, fileId: string): Promise<void> {
    await this.call(() => this.shopObject(), 'forgetGarmentId', { key, fileId });
  }

  async lockGarment(key: string, ms: number): Promise<string | undefined> {
    return (await this.call<string | null>(() => this.shopObject(), 'lockGarment', { key, ms })) ?? undefined;
  }

  async unlockGarment(key: string, token: string): Promise<void> {
    await this.call(() => this.shopObject(), 'unlockGarment', { key, token });
  }

  async createHandoff(record: HandoffRecord, keepMs: number): Promise<void> {
    await this.call(() => this.shopObject(), 'createHandoff', { record, keepMs });
  }

  async readHandoff(id: string): Promise<HandoffRecord | undefined> {
    return (await this.call<HandoffRecord | null>(() => this.shopObject(), 'readHandoff', { id })) ?? undefined;
  }

  async handoffByCode(code: string): Promise<HandoffRecord | undefined> {
    return (await this.call<HandoffRecord | null>(() => this.shopObject(), 'handoffByCode', { code })) ?? undefined;
  }

  async receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt> {
    return this.call<HandoffReceipt>(() => this.shopObject(), 'receiveHandoff', { code, photo, pairing, now });
  }

  async confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation> {
    return this.call<HandoffConfirmation>(() => this.shopObject(), 'confirmHandoff', { id, number, now });
  }

  /** Forgotten photos and their submits under way in the shop object; decided by the caller's clock, as the memory store's. */
  photoRevocations(now: () => number): PhotoRevocations {
    const shop = () => this.shopObject();
    return {
      revoke: async (photoId, until) => {
        await this.call(shop, 'revoke', { photoId, until, now: now() });
      },
      isRevoked: async (photoId) => this.call<boolean>(shop, 'isRevoked', { photoId, now: now() }),
      beginSubmit: async (photoId, ms) =>
        (await this.call<string | null>(shop, 'beginSubmit', { photoId, ms, now: now() })) ?? undefined,
      endSubmit: async (photoId, ticket) => {
        await this.call(shop, 'endSubmit', { photoId, ticket, now: now() });
      },
      submitsUnderWay: async (photoId) => this.call<number>(shop, 'submitsUnderWay', { photoId, now: now() }),
      // A status or file read asks the shop object once, not once for its allowance and again for its photo.
      takeReadAndCheck: async ({ bucket, perMinute }, client, photoId) => {
        const answer = await this.call<{ waitSeconds: number | null; revoked: boolean }>(shop, 'takeReadAndCheck', {
          bucket,
          client,
          perMinute,
          photoId,
          rateNow: this.now(),
          now: now(),
        });
        return { waitSeconds: answer.waitSeconds ?? undefined, revoked: answer.revoked };
      },
    };
  }

  /** The spend ledger in the shop object: each reserve and settle one atomic step there. */
  spendLedger(limits: SpendLimits, now: () => number): SpendLedger {
    const wire: WireLimits = {
      dailyTryons: limitToWire(limits.dailyTryons),
      dailyCredits: limitToWire(limits.dailyCredits),
      tryonsPerPhoto: limitToWire(limits.tryonsPerPhoto),
      clientDailyTryons: limitToWire(limits.clientDailyTryons),
    };
    return {
      reserve: (claim) => this.call(() => this.shopObject(), 'reserve', { claim, limits: wire, now: now() }),
      settle: async (key, outcome) => {
        await this.call(() => this.shopObject(), 'settle', { key, outcome, now: now() });
      },
      usage: () => this.call(() => this.shopObject(), 'usage', { now: now() }),
    };
  }

  /** The usage book in the shop object: each write one step there, decided by the caller's clock. */
  usageBook(now: () => number): UsageBook {
    const shop = () => this.shopObject();
    const start = async (
      kind: 'tryon' | 'preview',
      jobId: string,
      product: string,
      credits: number,
      keepMs: number,
    ) => {
      const at = now();
      await this.call(shop, 'usageAdd', {
        now: at,
        day: utcDay(at),
        counters: startCounters(kind, product, credits),
        job: { id: jobId, product, credits, keepMs },
      });
    };
    return {
      tryonStarted: (jobId, product, credits, keepMs) => start('tryon', jobId, product, credits, keepMs),
      previewStarted: (jobId, product, credits, keepMs) => start('preview', jobId, product, credits, keepMs),
      jobFailed: async (jobId, code) => {
        await this.call(shop, 'usageFailed', { jobId, code, now: now() });
      },
      errorAnswered: async (code) => {
        const at = now();
        await this.call(shop, 'usageAdd', { now: at, day: utcDay(at), counters: { [`e:${code}`]: 1 } });
      },
      days: async (count = USAGE_DAYS) => {
        const dates = lastDays(now(), count);
        const counters = await this.call<UsageCounters[]>(shop, 'usageDays', { dates, now: now() });
        return dates.map((date, i) => dayOf(date, counters[i] ?? {}));
      },
      claimAlert: (day, threshold) => this.call<boolean>(shop, 'usageAlert', { day, threshold, now: now() }),
    };
  }

  async takeRequest(bucket: RateBucket, client: string, perMinute: number): Promise<number | undefined> {
    if (perMinute <= 0) return undefined;
    return (
      (await this.call<number | null>(() => this.shopObject(), 'takeRequest', { bucket, client, perMinute })) ??
      undefined
    );
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
