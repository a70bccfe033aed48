// The per-client rate limits (rate-limit.ts) in the shop's Durable Object, both sides of the wire:
// the isolate's call and the shop object's token buckets, exact across isolates (one object, one
// event at a time), kept in its memory and saved to its `rate` table in batches.
import type { RateBucket, RateBuckets } from './rate-limit.js';
import { firstRow, type Call, type ShopCall, type ShopTables, type SqlStorage } from '../cluster/durable-wire.js';

export function durableRateBuckets(call: ShopCall): RateBuckets {
  return {
    takeRequest: async (bucket, client, perMinute) => {
      if (perMinute <= 0) return undefined;
      return (await call<number | null>('takeRequest', { bucket, client, perMinute })) ?? undefined;
    },
  };
}

/** How long a take from a rate bucket may stay in memory only (take, saveBuckets). */
const BUCKETS_SAVED_EVERY_MS = 1_000;

/** A client's rate bucket: tokens left at `at`. */
interface Bucket {
  bucket: RateBucket;
  client: string;
  tokens: number;
  at: number;
}

/** The rate buckets in the shop object. */
export class RateTables implements ShopTables {
  readonly schema = [
    'CREATE TABLE IF NOT EXISTS rate (bucket TEXT NOT NULL, client TEXT NOT NULL, tokens REAL NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bucket, client))',
  ];

  readonly operations = {
    takeRequest: ({
      now,
      bucket,
      client,
      perMinute,
    }: Call & { bucket: RateBucket; client: string; perMinute: number }) => this.take(now, bucket, client, perMinute),
  };

  /** The rate buckets in use, by bucket and client: authoritative while this object lives. */
  private readonly buckets = new Map<string, Bucket>();
  /** Buckets taken from since their rows were last written. */
  private readonly unsaved = new Set<string>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly sql: SqlStorage,
    /** The shop object's sweep of every part (at most once a minute), which a take asks for first. */
    private readonly sweepAll: (now: number) => void,
  ) {}

  /** A bucket idle for a minute is full again, as if absent: its row and its place in memory go. */
  sweep(now: number): void {
    this.sql.exec('DELETE FROM rate WHERE at <= ?', now - 60_000);
    for (const [key, held] of this.buckets)
      if (held.at <= now - 60_000) {
        this.buckets.delete(key);
        this.unsaved.delete(key);
      }
  }

  /**
   * A token bucket per client, refilled smoothly, as the memory store's. The bucket lives in this
   * object's memory, which is authoritative while the object lives (one instance, one event at a
   * time: every take is exact across isolates); its row is only where a restarted object starts
   * from. Writing the row on every take would make each read wait for a storage commit (the output
   * gate holds the answer until it is durable), most of what a read costs here, so rows are
   * written in one batch at most BUCKETS_SAVED_EVERY_MS after a take (saveBuckets). Also the first
   * half of a read's one step (takeReadAndCheck, store/durable-shop.ts).
   */
  take(now: number, bucket: RateBucket, client: string, perMinute: number): number | undefined {
    if (perMinute <= 0) return undefined;
    this.sweepAll(now);
    const refillPerMs = perMinute / 60_000;
    const key = `${bucket}\n${client}`;
    const held = this.buckets.get(key) ?? this.bucketRow(bucket, client);
    const tokens = held ? Math.min(perMinute, held.tokens + (now - held.at) * refillPerMs) : perMinute;
    const left = tokens < 1 ? tokens : tokens - 1;
    this.buckets.set(key, { bucket, client, tokens: left, at: now });
    this.unsaved.add(key);
    this.saveTimer ??= setTimeout(() => this.saveBuckets(), BUCKETS_SAVED_EVERY_MS);
    return tokens < 1 ? Math.ceil((1 - tokens) / refillPerMs / 1000) : undefined;
  }

  /** The bucket as last saved: where an object that was evicted or restarted starts from. */
  private bucketRow(bucket: RateBucket, client: string): Bucket | undefined {
    const row = firstRow(
      this.sql.exec<{ tokens: number; at: number }>(
        'SELECT tokens, at FROM rate WHERE bucket = ? AND client = ?',
        bucket,
        client,
      ),
    );
    return row && { bucket, client, tokens: row.tokens, at: row.at };
  }

  /**
   * Writes the buckets taken from since the last save, in one event: its statements are one
   * transaction, and the reads answered meanwhile wait for one commit, not one each. An object
   * evicted for being idle has saved long before (Cloudflare evicts after 10 s or more without
   * events; the save comes within 1 s); one that stops abruptly (a crash, a deploy
   * restarting it mid-burst) loses at most the takes of its last BUCKETS_SAVED_EVERY_MS, so a
   * client may read that many times again, never more than one minute's allowance.
   */
  private saveBuckets(): void {
    this.saveTimer = undefined;
    for (const key of this.unsaved) {
      const held = this.buckets.get(key);
      if (!held) continue;
      this.sql.exec(
        'INSERT OR REPLACE INTO rate (bucket, client, tokens, at) VALUES (?, ?, ?, ?)',
        held.bucket,
        held.client,
        held.tokens,
        held.at,
      );
    }
    this.unsaved.clear();
  }
}
