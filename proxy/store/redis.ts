// The store shared by many proxy instances through Redis (TRYON_REDIS_URL): node.ts builds it,
// and only when that variable is set, so the Workers build and a shop without Redis never load
// ioredis. Each part is its feature's Redis adapter, on one connection for commands and one for
// the fan-out's subscription: atomic steps are single commands or Lua scripts (each beside the
// method that runs it, in its feature's module), rate-limiter-flexible for per-client limits,
// pub/sub for the fan-out that wakes SSE listeners. Commands fail fast while Redis is away (no
// offline queue, a short command timeout): the caller answers 503 store_unavailable and nothing is
// spent unguarded; ioredis reconnects by itself.
import { Redis } from 'ioredis';
import { StoreOutages } from '../cluster/outages.js';
import { RedisTryonStatuses, STATUS_SCRIPTS } from '../tryons/status-store-redis.js';
import { RedisWebhookIds } from '../upstream/webhook-ids-redis.js';
import { RedisGarmentIds } from '../catalog/garment-ids-redis.js';
import { HANDOFF_SCRIPTS, RedisHandoffs } from '../photos/phone-handoffs-redis.js';
import { REVOCATION_SCRIPTS, redisRevocations } from '../photos/revocations-redis.js';
import { RedisRateBuckets } from '../limits/rate-buckets-redis.js';
import { LEDGER_SCRIPTS, RedisSpendLedger } from '../money/spend-ledger-redis.js';
import { RedisUsageBook } from '../money/usage-book-redis.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { UsageBook } from '../money/usage-book.js';
import type { Log } from '../operator/log.js';
import { RedisTryonTimes } from '../timings/tryon-times-redis.js';
import { ORDER_SCRIPTS, RedisOrderBook } from '../orders/order-book-redis.js';
import type { OrderBook } from '../orders/order-book.js';
import { StoreOfParts } from './parts.js';
import type { ProxyStore } from './store.js';

/**
 * Every Lua script of the store by name. Each touches only the keys passed in its KEYS, all in one
 * slot, so the store runs on Redis Cluster (test/proxy/redis-scripts.test.ts checks each).
 */
export const STORE_SCRIPTS: Record<string, string> = {
  ...STATUS_SCRIPTS,
  ...REVOCATION_SCRIPTS,
  ...HANDOFF_SCRIPTS,
  ...LEDGER_SCRIPTS,
  ...ORDER_SCRIPTS,
};

export interface RedisStoreOptions {
  /** Prepended to every key and the channel, so several shops can share one Redis. */
  prefix?: string;
  log?: Log;
  /** Told of every failed operation (metrics). */
  onError?: (operation: string) => void;
  /** How long one command may take before the store counts as unavailable. */
  commandTimeoutMs?: number;
}

export class RedisStore extends StoreOfParts implements ProxyStore {
  readonly kind = 'redis' as const;
  private readonly prefix: string;
  private readonly outages: StoreOutages;

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisStoreOptions = {},
  ) {
    super();
    this.prefix = options.prefix ?? 'tryon:';
    this.outages = new StoreOutages(options.log);
    const run = this.run;
    this.parts = {
      statuses: new RedisTryonStatuses(redis, subscriber, this.prefix, run, options.log),
      webhooks: new RedisWebhookIds(redis, this.prefix, run),
      garments: new RedisGarmentIds(redis, this.prefix, run),
      handoffs: new RedisHandoffs(redis, this.prefix, run),
      buckets: new RedisRateBuckets(redis, this.prefix, run),
      times: new RedisTryonTimes(redis, this.prefix, run),
    };
  }

  /** Runs one operation; any failure of Redis is the shopper's 503 store_unavailable, said once in the log. */
  private readonly run = <T>(operation: string, work: () => Promise<T>): Promise<T> =>
    this.outages.run(operation, work, this.options.onError);

  photoRevocations(now: () => number): PhotoRevocations {
    return redisRevocations(this.redis, this.prefix, this.run, now);
  }

  spendLedger(limits: SpendLimits, now: () => number): SpendLedger {
    return new RedisSpendLedger(this.redis, this.prefix, limits, now, this.run);
  }

  usageBook(now: () => number): UsageBook {
    return new RedisUsageBook(this.redis, this.prefix, now, this.run);
  }

  orderBook(): OrderBook {
    return new RedisOrderBook(this.redis, this.prefix, this.run);
  }

  async healthy(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.redis.disconnect();
  }
}

/**
 * Connects to Redis at `url` (two connections: commands and the fan-out's subscription) and
 * waits up to `waitMs` for it; an unreachable Redis still gives a store, which answers
 * store_unavailable until Redis comes, and reconnects by itself.
 */
export async function connectRedisStore(
  url: string,
  options: RedisStoreOptions & { waitMs?: number } = {},
): Promise<RedisStore> {
  const connection = {
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    maxRetriesPerRequest: 1,
    // Reconnect soon after Redis returns: at most a second between attempts.
    retryStrategy: (times: number) => Math.min(100 * times, 1_000),
  };
  const redis = new Redis(url, connection);
  const subscriber = new Redis(url, { ...connection, commandTimeout: undefined });
  let lastSaid = 0;
  const said = (error: Error) => {
    // Reconnection attempts fail every second while Redis is away: say so at most every 10 s.
    if (Date.now() - lastSaid < 10_000) return;
    lastSaid = Date.now();
    options.log?.({ level: 'warn', event: 'store_connection_error', message: error.message });
  };
  redis.on('error', said);
  subscriber.on('error', said);
  const ready = (client: Redis) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.waitMs ?? 5_000);
      client.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  await Promise.all([ready(redis), ready(subscriber)]);
  return new RedisStore(redis, subscriber, options);
}
