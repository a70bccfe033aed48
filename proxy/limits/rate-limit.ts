// Per-client rate limits, kept in the store so every instance counts against one allowance: one
// for writes (uploads, try-ons, hand-offs: they cost credits) and one for reads (status, events,
// files). The memory store keeps a smoothly refilled token bucket per client; the Redis store a
// per-minute window (rate-limiter-flexible). docs/proxy.md says which.
import type { MiddlewareHandler } from 'hono';
import { ProxyError } from '../http/errors.js';
import type { ProxyContext, ProxyEnv } from '../http/request-facts.js';

/** The two allowances every store counts per client. */
export type RateBucket = 'writes' | 'reads';

/** The store's part in rate limits: it counts every client's requests, for every instance. */
export interface RateBuckets {
  /** Takes one request from a client's per-minute allowance: undefined when allowed, else seconds to wait. */
  takeRequest(bucket: RateBucket, client: string, perMinute: number): Promise<number | undefined>;
}

export interface RateLimit {
  store: RateBuckets;
  bucket: RateBucket;
  perMinute: number;
}

/** Throws 429 rate_limited with Retry-After when the client has nothing left. */
export async function takeRequest(limit: RateLimit, client: string): Promise<void> {
  const waitSeconds = await limit.store.takeRequest(limit.bucket, client, limit.perMinute);
  if (waitSeconds !== undefined) {
    throw rateLimited(waitSeconds);
  }
}

export function rateLimited(waitSeconds: number): ProxyError {
  return new ProxyError(
    429,
    'rate_limited',
    'Too many requests; please wait a moment and try again.',
    true,
    waitSeconds,
  );
}

/** Takes one request of `limit` for the asking client before the route runs (429 when none is left). */
export function rateLimit(limit: RateLimit, client: (c: ProxyContext) => string): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    await takeRequest(limit, client(c));
    await next();
  };
}
