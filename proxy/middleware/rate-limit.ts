// Per-client rate limits: a token bucket per client, refilled smoothly. The proxy keeps two, one
// for writes (uploads, try-on submits: they cost credits) and one for reads (status, events,
// files). State is in memory, per proxy instance (documented in docs/proxy.md).
import type { MiddlewareHandler } from 'hono';
import { ProxyError } from '../errors.js';
import type { ProxyContext, ProxyEnv } from '../context.js';

export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number, private readonly now: () => number) {}

  /** Throws 429 rate_limited with Retry-After when the client has no token left. */
  take(client: string): void {
    if (this.perMinute <= 0) return;
    const now = this.now();
    const refillPerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(client) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * refillPerMs);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(client, bucket);
      const waitMs = (1 - bucket.tokens) / refillPerMs;
      throw new ProxyError(429, 'rate_limited', 'Too many requests; please wait a moment and try again.', true, Math.ceil(waitMs / 1000));
    }
    bucket.tokens -= 1;
    this.buckets.delete(client);
    this.buckets.set(client, bucket);
    if (this.buckets.size > 50_000) this.forgetFull(now, refillPerMs);
  }

  private forgetFull(now: number, refillPerMs: number): void {
    for (const [client, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * refillPerMs >= this.perMinute) this.buckets.delete(client);
      if (this.buckets.size <= 25_000) break;
    }
  }
}

/** Takes one token of `limiter` for the asking client before the route runs (429 when none is left). */
export function rateLimit(limiter: RateLimiter, client: (c: ProxyContext) => string): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    limiter.take(client(c));
    await next();
  };
}
