// What every instance knows about each try-on's status, and the store's part in it: the record
// (the snapshot everyone is shown, with the marks the status board keeps), who may poll it upstream
// now, and the fan-out that wakes every instance's listeners. The same in every store
// (status-store-memory.ts, -redis.ts, -durable.ts), with one rule for what may replace what.
import { STATUS_RANK, isTerminal, type TryonSnapshot } from './snapshot.js';

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
  /** When the proxy's submit was accepted (epoch ms; set when seeded), for how long a try-on takes. */
  acceptedAt?: number | undefined;
  /** What the try-on was made from (set when seeded): what its result is checked against, and a rerender is made from. */
  plan?: TryonPlan | undefined;
}

/**
 * A try-on's makings, kept with its status for as long as its handle lives: the catalog product
 * and variant its result is checked against, the views and output asked for, and what a rerender
 * needs to be charged like the try-on itself (the photo it is made from, whose limits it counts in,
 * its upstream file id, its idempotency key). Never in a status body or a log line.
 */
export interface TryonPlan {
  product: string;
  variant?: string | undefined;
  views: string[];
  output: 'image' | 'video';
  photoId: string;
  /** The client's limit key (a hash, never the address). */
  client: string;
  personFileId: string;
  /** Epoch ms after which the photo's handle has expired (no retry of the try-on can come). */
  keepUntil: number;
  /** The try-on's upstream idempotency key: a rerender's key is made from it, so every instance makes the same one. */
  key: string;
  /** A piece put over an earlier result (`over`): its result holds more than its own garment, and is not checked. */
  over?: true | undefined;
}

export interface StatusWrite {
  /** The record now stored: the one written, or a later one this write must not undo. */
  record: StatusRecord;
  /** This write moved the try-on to a final status (exactly one write in the cluster does). */
  finished: boolean;
}

/** The store's part in try-on statuses: the records, the right to poll, the fan-out. */
export interface TryonStatusStore {
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
}

/** Whether `next` may replace `current` (the rule every store applies; status-store-redis.ts mirrors it in Lua). */
export function replaces(current: TryonSnapshot | undefined, next: TryonSnapshot): boolean {
  if (!current) return true;
  if (isTerminal(current.status)) return false;
  if (STATUS_RANK[next.status] !== STATUS_RANK[current.status])
    return STATUS_RANK[next.status] > STATUS_RANK[current.status];
  return next.at >= current.at;
}

const isFinal = (snapshot: TryonSnapshot) => isTerminal(snapshot.status);

/** What writeStatus stores over `current` (status-store-memory.ts and status-store-durable.ts; status-store-redis.ts mirrors it in Lua). */
export function mergeStatus(current: StatusRecord | undefined, record: StatusRecord): StatusWrite {
  const wins = replaces(current?.snapshot, record.snapshot);
  const stored: StatusRecord = {
    snapshot: wins ? record.snapshot : current!.snapshot,
    pushed: Boolean(current?.pushed || record.pushed) || undefined,
    ownEvents: Boolean(current?.ownEvents || record.ownEvents) || undefined,
    product: current?.product ?? record.product,
    tier: current?.tier ?? record.tier,
    acceptedAt: current?.acceptedAt ?? record.acceptedAt,
    plan: current?.plan ?? record.plan,
  };
  return { record: stored, finished: wins && isFinal(record.snapshot) && !(current && isFinal(current.snapshot)) };
}
