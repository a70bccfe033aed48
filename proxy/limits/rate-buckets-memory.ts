// The per-client rate limits (rate-limit.ts) for one process: the default store's. A token bucket
// per client, refilled smoothly; the buckets of clients long idle (full again) are dropped once
// there are many, so memory stays bounded.
import type { RateBucket, RateBuckets } from './rate-limit.js';

interface Bucket {
  tokens: number;
  at: number;
}

export class MemoryRateBuckets implements RateBuckets {
  private readonly buckets = { writes: new Map<string, Bucket>(), reads: new Map<string, Bucket>() };

  constructor(private readonly now: () => number = Date.now) {}

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
}
