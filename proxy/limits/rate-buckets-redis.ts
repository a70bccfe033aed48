// The per-client rate limits (rate-limit.ts) on Redis, so every instance counts against one
// allowance: a per-minute window per client (rate-limiter-flexible: one atomic INCR + PEXPIRE),
// under `<prefix>rate:<bucket>`. A refusal says how long to wait; Redis failing is the store's 503.
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { StoreRun } from '../cluster/outages.js';
import type { RateBucket, RateBuckets } from './rate-limit.js';

export class RedisRateBuckets implements RateBuckets {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: StoreRun,
  ) {}

  async takeRequest(bucket: RateBucket, client: string, perMinute: number): Promise<number | undefined> {
    if (perMinute <= 0) return undefined;
    const name = `${bucket}:${perMinute}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}rate:${bucket}`,
        points: perMinute,
        duration: 60,
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(name, limiter);
    }
    try {
      await limiter.consume(client, 1);
      return undefined;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      return this.run('rate_limit', () => Promise.reject(refusal as Error));
    }
  }
}
