// The store: everything the proxy's instances must agree on, behind one interface, so one process
// (store/memory.ts, the default), many processes sharing Redis (store/redis.ts, Node only) and
// many Workers isolates sharing Durable Objects (store/durable.ts) behave the same. Per-instance
// caches that cannot disagree (minted handles, in-flight promises, an instance's own SSE
// listeners) stay in the modules that use them; docs/proxy.md lists both.
import { ProxyError } from '../http/errors.js';
import { STATUS_RANK, isTerminal, type TryonSnapshot } from '../tryons/snapshot.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { RateBuckets } from '../limits/rate-limit.js';
import type { UsageBook } from '../money/usage-book.js';
import type { HandoffConfirmation, HandoffPairing, HandoffReceipt, HandoffRecord } from '../photos/handoffs.js';

/** What every instance knows about one try-on. */
export interface StatusRecord {
  snapshot: TryonSnapshot;
  /** A verified webhook has come for this try-on: upstream pushes its changes. */
  pushed?: boolean | undefined;
  /** Upstream sends events for this job itself, so events of its children add nothing. */
  ownEvents?: boolean | undefined;
  /** For the metrics of finished try-ons. */
  product?: string | undefined;
  tier?: string | undefined;
}

export interface StatusWrite {
  /** The record now stored: the one written, or a later one this write must not undo. */
  record: StatusRecord;
  /** This write moved the try-on to a final status (exactly one write in the cluster does). */
  finished: boolean;
}

export type { RateBucket } from '../limits/rate-limit.js';

export interface ProxyStore extends RateBuckets {
  /** `memory` (one process), `redis` or `durable` (shared): /health says whether a shared one answers. */
  readonly kind: 'memory' | 'redis' | 'durable';

  // Try-on status snapshots and who polls them.
  readStatus(jobId: string): Promise<StatusRecord | undefined>;
  /**
   * Saves a snapshot unless it would move the status backwards (queued < processing <
   * succeeded/failed; a final status is never replaced; an older read of the same status loses).
   * The flags (`pushed`, `ownEvents`) only ever turn on.
   */
  writeStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<StatusWrite>;
  /** Saves the first snapshot of a freshly submitted try-on, unless one is known already. */
  seedStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<void>;
  /** The right to poll this try-on upstream for `ms`: granted to exactly one caller in the cluster. */
  claimPoll(jobId: string, ms: number): Promise<boolean>;
  /** Gives the right back early (the poll failed: the next reader should try at once). */
  releasePoll(jobId: string): Promise<void>;

  // Fan-out: a new snapshot wakes the SSE listeners of every instance.
  publish(jobId: string, snapshot: TryonSnapshot): Promise<void>;
  /** Hears snapshots published by the *other* instances (an instance delivers its own locally). */
  onPublished(listener: (jobId: string, snapshot: TryonSnapshot) => void): () => void;
  /**
   * Someone here watches this try-on until the returned function is called: a store whose fan-out
   * is per try-on (Durable Objects) hears its snapshots only meanwhile, and hands onPublished the
   * latest one as soon as it listens. Stores that hear every try-on anyway leave it out.
   */
  follow?(jobId: string): () => void;

  /** True the first time a webhook id is seen in the cluster; a redelivery answers false. */
  firstDelivery(webhookId: string, ttlMs: number): Promise<boolean>;

  // Garment file ids: each catalog image uploaded once for the cluster, under a lock.
  garmentId(key: string): Promise<string | undefined>;
  saveGarmentId(key: string, fileId: string): Promise<void>;
  /** Forgets `fileId` (upstream no longer knows it) unless another instance replaced it already. */
  forgetGarmentId(key: string, fileId: string): Promise<void>;
  /** A lock token when granted, undefined while someone else holds the lock. */
  lockGarment(key: string, ms: number): Promise<string | undefined>;
  unlockGarment(key: string, token: string): Promise<void>;

  // Desktop → phone hand-offs (photos/handoffs.ts): kept until `keepMs` after their code ends.
  createHandoff(record: HandoffRecord, keepMs: number): Promise<void>;
  /** The hand-off of a desktop's handle id. */
  readHandoff(id: string): Promise<HandoffRecord | undefined>;
  /** The hand-off of a phone's code (checked before an upload is let through, and again by receiveHandoff). */
  handoffByCode(code: string): Promise<HandoffRecord | undefined>;
  /**
   * Gives `photo` (with the phone's confirmation number, its tries and deadline) to the waiting
   * hand-off of `code` in one atomic step: exactly one call per code in the cluster is `received`.
   */
  receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt>;
  /**
   * Judges a number typed on the desktop of hand-off `id` in one atomic step (confirmationFor in
   * photos/handoffs.ts): a right number confirms, a wrong one takes a try, so parallel guesses on any
   * instances never get more than the tries allowed.
   */
  confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation>;

  /** Forgotten photos ("Forget my photo", photos/revocations.ts) kept in this store. */
  photoRevocations(now: () => number): PhotoRevocations;

  /** The spend ledger (budgets and caps, spend-ledger.ts) kept in this store. */
  spendLedger(limits: SpendLimits, now: () => number): SpendLedger;

  /** The usage book (what was spent, day by day, for GET /usage; usage-book.ts) kept in this store. */
  usageBook(now: () => number): UsageBook;

  /** Whether the store answers now (for /health). */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** The shared store cannot be reached: nothing that spends or must agree may go on unguarded. */
export class StoreUnavailable extends ProxyError {
  /** `cause`: the store's own error, for the operator's stack traces; the shopper's answer never shows it. */
  constructor(cause?: unknown) {
    super(503, 'store_unavailable', 'Try-on is briefly unavailable; please try again in a moment.', true, 1);
    this.name = 'StoreUnavailable';
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * A store a network hop away (Redis, Durable Objects) runs every operation through this: any
 * failure is the shopper's 503 store_unavailable, and the operator hears of an outage once when
 * it starts and once when it ends, not once per request.
 */
export class StoreOutages {
  private failing = false;

  constructor(private readonly log: ((entry: Record<string, unknown>) => void) | undefined) {}

  async run<T>(operation: string, work: () => Promise<T>, failed?: (operation: string) => void): Promise<T> {
    try {
      const result = await work();
      if (this.failing) {
        this.failing = false;
        this.log?.({ level: 'warn', event: 'store_recovered' });
      }
      return result;
    } catch (error) {
      failed?.(operation);
      if (!this.failing) {
        this.failing = true;
        this.log?.({ level: 'error', event: 'store_unavailable', operation, message: (error as Error).message });
      }
      throw new StoreUnavailable(error);
    }
  }
}

/** Whether `next` may replace `current` (the rule every store applies; redis.ts mirrors it in Lua). */
export function replaces(current: TryonSnapshot | undefined, next: TryonSnapshot): boolean {
  if (!current) return true;
  if (isTerminal(current.status)) return false;
  if (STATUS_RANK[next.status] !== STATUS_RANK[current.status])
    return STATUS_RANK[next.status] > STATUS_RANK[current.status];
  return next.at >= current.at;
}

const isFinal = (snapshot: TryonSnapshot) => isTerminal(snapshot.status);

/** What writeStatus stores over `current` (memory.ts and durable-tryon.ts; redis.ts mirrors it in Lua). */
export function mergeStatus(current: StatusRecord | undefined, record: StatusRecord): StatusWrite {
  const wins = replaces(current?.snapshot, record.snapshot);
  const stored: StatusRecord = {
    snapshot: wins ? record.snapshot : current!.snapshot,
    pushed: Boolean(current?.pushed || record.pushed) || undefined,
    ownEvents: Boolean(current?.ownEvents || record.ownEvents) || undefined,
    product: current?.product ?? record.product,
    tier: current?.tier ?? record.tier,
  };
  return { record: stored, finished: wins && isFinal(record.snapshot) && !(current && isFinal(current.snapshot)) };
}
