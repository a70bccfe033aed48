// The store shared by many proxy instances through Redis (TRYON_REDIS_URL): node.ts builds it,
// and only when that variable is set, so the Workers build and a shop without Redis never load
// ioredis. Atomic steps are single commands or Lua scripts: SET NX PX for the right to poll and
// the garment upload lock, a compare-and-set script for snapshots that never go backwards,
// rate-limiter-flexible for per-client limits, pub/sub for the fan-out that wakes SSE listeners.
// Commands fail fast while Redis is away (no offline queue, a short command timeout): the caller
// answers 503 store_unavailable and nothing is spent unguarded; ioredis reconnects by itself.
// Over 300 lines (about 450): one class is every part of ProxyStore on one connection, and each
// Lua script sits beside the method that runs it, so a script and its caller's arguments are read
// together (the spend ledger's scripts are in redis-ledger.ts).
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { STATUS_RANK, type TryonSnapshot } from '../tryons/snapshot.js';
import type { SpendLedger, SpendLimits } from '../money/spend-ledger.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import { LEDGER_SCRIPTS, RedisSpendLedger } from './redis-ledger.js';
import { RedisUsageBook } from './redis-usage.js';
import type { UsageBook } from '../money/usage-book.js';
import { besideKey } from './redis-keys.js';
import type { HandoffConfirmation, HandoffPairing, HandoffReceipt, HandoffRecord } from '../photos/handoffs.js';
import { StoreOutages, type ProxyStore, type RateBucket, type StatusRecord, type StatusWrite } from './store.js';

/** KEYS[1] status hash; ARGV: snapshot json, rank, at, pushed, ownEvents, product, tier, ttl ms. Mirrors replaces() in store.ts. */
const WRITE_STATUS = `
local k = KEYS[1]
local cr = tonumber(redis.call('HGET', k, 'rank'))
local ca = tonumber(redis.call('HGET', k, 'at'))
local nr = tonumber(ARGV[2])
local na = tonumber(ARGV[3])
local wins
if not cr then wins = true elseif cr == 2 then wins = false elseif nr ~= cr then wins = nr > cr else wins = na >= ca end
if wins then redis.call('HSET', k, 'snapshot', ARGV[1], 'rank', ARGV[2], 'at', ARGV[3]) end
if ARGV[4] == '1' then redis.call('HSET', k, 'pushed', '1') end
if ARGV[5] == '1' then redis.call('HSET', k, 'ownEvents', '1') end
if ARGV[6] ~= '' then redis.call('HSETNX', k, 'product', ARGV[6]) redis.call('HSETNX', k, 'tier', ARGV[7]) end
redis.call('PEXPIRE', k, ARGV[8])
local finished = 0
if wins and nr == 2 and cr ~= 2 then finished = 1 end
return {finished, redis.call('HGETALL', k)}
`;

/** The first snapshot of a submitted try-on, unless another instance knows it already. */
const SEED_STATUS = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'snapshot', ARGV[1], 'rank', ARGV[2], 'at', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'product', ARGV[4], 'tier', ARGV[5]) end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`;

/** Marks KEYS[1] for ARGV[1] ms unless it is marked for longer already. */
const MARK_AT_LEAST = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1
`;

/** Deletes KEYS[1] only if it still holds ARGV[1] (a lock token, a garment file id). */
const DELETE_IF = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * KEYS: the forgotten photo's key, its submits (a sorted set of tickets by when they lapse, in the
 * same slot). ARGV: ticket, now, lapses at. Lets a submit out unless the photo is forgotten.
 */
const BEGIN_SUBMIT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local left = tonumber(ARGV[3]) - tonumber(ARGV[2])
if redis.call('PTTL', KEYS[2]) < left then redis.call('PEXPIRE', KEYS[2], math.max(1, left)) end
return 1
`;

/**
 * KEYS[1]: the hand-off's hash (by its code). ARGV: photo handle, now, confirmation number, tries,
 * confirm by. Gives the photo and its pairing to a waiting hand-off, once: mirrors receiptFor() in
 * photos/handoffs.ts.
 */
const RECEIVE_HANDOFF = `
local expires = redis.call('HGET', KEYS[1], 'expiresAt')
if not expires then return 'unknown' end
if redis.call('HEXISTS', KEYS[1], 'photo') == 1 then return 'used' end
if tonumber(ARGV[2]) >= tonumber(expires) then return 'expired' end
redis.call('HSET', KEYS[1], 'photo', ARGV[1], 'confirmation', ARGV[3], 'triesLeft', ARGV[4], 'confirmBy', ARGV[5])
return 'received'
`;

/**
 * KEYS[1]: the hand-off's hash (by its code). ARGV: the typed number, now. Judges it as
 * confirmationFor() in photos/handoffs.ts does, in one step: the right number marks the hand-off
 * confirmed, a wrong one takes a try (HINCRBY, never below 0). The numbers are compared over every
 * digit whatever the first difference (bit is Redis's Lua bit library), so time says nothing of
 * where they differ. Answers {outcome, photo or tries left}.
 */
const CONFIRM_HANDOFF = `
local h = redis.call('HMGET', KEYS[1], 'expiresAt', 'photo', 'confirmation', 'triesLeft', 'confirmBy', 'confirmed')
if not h[1] then return {'unknown'} end
if h[6] == '1' then return {'confirmed'} end
local now = tonumber(ARGV[2])
if not h[2] then
  if now >= tonumber(h[1]) then return {'expired'} end
  return {'waiting'}
end
local tries = tonumber(h[4] or '0')
if not h[3] or tries <= 0 then return {'locked'} end
if now >= tonumber(h[5] or '0') then return {'expired'} end
local stored, typed = h[3], ARGV[1]
local diff = bit.bxor(#stored, #typed)
for i = 1, math.max(#stored, #typed) do
  diff = bit.bor(diff, bit.bxor(string.byte(stored, i) or 0, string.byte(typed, i) or 0))
end
if diff == 0 then
  redis.call('HSET', KEYS[1], 'confirmed', '1')
  return {'received', h[2]}
end
local left = redis.call('HINCRBY', KEYS[1], 'triesLeft', -1)
if left > 0 then return {'wrong', left} end
return {'locked'}
`;

/**
 * Every Lua script of the store by name. Each touches only the keys passed in its KEYS, all in one
 * slot, so the store runs on Redis Cluster (test/proxy/redis-scripts.test.ts checks each).
 */
export const STORE_SCRIPTS: Record<string, string> = {
  tryonWriteStatus: WRITE_STATUS,
  tryonSeedStatus: SEED_STATUS,
  tryonDeleteIf: DELETE_IF,
  tryonMarkAtLeast: MARK_AT_LEAST,
  tryonBeginSubmit: BEGIN_SUBMIT,
  tryonReceiveHandoff: RECEIVE_HANDOFF,
  tryonConfirmHandoff: CONFIRM_HANDOFF,
  ...LEDGER_SCRIPTS,
};

export interface RedisStoreOptions {
  /** Prepended to every key and the channel, so several shops can share one Redis. */
  prefix?: string;
  log?: (entry: Record<string, unknown>) => void;
  /** Told of every failed operation (metrics). */
  onError?: (operation: string) => void;
  /** How long one command may take before the store counts as unavailable. */
  commandTimeoutMs?: number;
}

function recordOf(fields: Record<string, string>): StatusRecord | undefined {
  if (!fields.snapshot) return undefined;
  return {
    snapshot: JSON.parse(fields.snapshot) as TryonSnapshot,
    pushed: fields.pushed === '1' || undefined,
    ownEvents: fields.ownEvents === '1' || undefined,
    product: fields.product,
    tier: fields.tier,
  };
}

function pairs(list: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) fields[list[i]!] = list[i + 1]!;
  return fields;
}

export class RedisStore implements ProxyStore {
  readonly kind = 'redis' as const;
  private readonly prefix: string;
  private readonly channel: string;
  private readonly instance = crypto.randomUUID();
  private readonly listeners = new Set<(jobId: string, snapshot: TryonSnapshot) => void>();
  private readonly limiters = new Map<string, RateLimiterRedis>();
  private readonly outages: StoreOutages;

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? 'tryon:';
    this.outages = new StoreOutages(options.log);
    this.channel = `${this.prefix}events`;
    redis.defineCommand('tryonWriteStatus', { numberOfKeys: 1, lua: WRITE_STATUS });
    redis.defineCommand('tryonSeedStatus', { numberOfKeys: 1, lua: SEED_STATUS });
    redis.defineCommand('tryonDeleteIf', { numberOfKeys: 1, lua: DELETE_IF });
    redis.defineCommand('tryonMarkAtLeast', { numberOfKeys: 1, lua: MARK_AT_LEAST });
    redis.defineCommand('tryonBeginSubmit', { numberOfKeys: 2, lua: BEGIN_SUBMIT });
    redis.defineCommand('tryonReceiveHandoff', { numberOfKeys: 1, lua: RECEIVE_HANDOFF });
    redis.defineCommand('tryonConfirmHandoff', { numberOfKeys: 1, lua: CONFIRM_HANDOFF });
    // ioredis subscribes again after a reconnect; subscribing on every 'ready' covers a first
    // connection that came late.
    const subscribe = () => void subscriber.subscribe(this.channel).catch(() => undefined);
    subscriber.on('ready', subscribe);
    if (subscriber.status === 'ready') subscribe();
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      try {
        const message = JSON.parse(text) as { from: string; jobId: string; snapshot: TryonSnapshot };
        if (message.from === this.instance) return;
        for (const listener of this.listeners) listener(message.jobId, message.snapshot);
      } catch {
        this.options.log?.({ level: 'warn', event: 'store_event_unreadable' });
      }
    });
  }

  private key(kind: string, id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  /** Runs one operation; any failure of Redis is the shopper's 503 store_unavailable, said once in the log. */
  private async run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    return this.outages.run(operation, work, this.options.onError);
  }

  async readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return this.run('read_status', async () => recordOf(await this.redis.hgetall(this.key('status', jobId))));
  }

  async writeStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<StatusWrite> {
    return this.run('write_status', async () => {
      const { snapshot } = record;
      const [finished, fields] = await (this.redis as unknown as Scripts).tryonWriteStatus(
        this.key('status', jobId),
        JSON.stringify(snapshot),
        STATUS_RANK[snapshot.status],
        snapshot.at,
        record.pushed ? '1' : '0',
        record.ownEvents ? '1' : '0',
        record.product ?? '',
        record.tier ?? '',
        Math.max(1, Math.round(ttlMs)),
      );
      return { record: recordOf(pairs(fields))!, finished: finished === 1 };
    });
  }

  async seedStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<void> {
    await this.run('seed_status', async () => {
      const { snapshot } = record;
      await (this.redis as unknown as Scripts).tryonSeedStatus(
        this.key('status', jobId),
        JSON.stringify(snapshot),
        STATUS_RANK[snapshot.status],
        snapshot.at,
        record.product ?? '',
        record.tier ?? '',
        Math.max(1, Math.round(ttlMs)),
      );
    });
  }

  async claimPoll(jobId: string, ms: number): Promise<boolean> {
    return this.run(
      'claim_poll',
      async () =>
        (await this.redis.set(this.key('poll', jobId), this.instance, 'PX', Math.max(1, Math.round(ms)), 'NX')) ===
        'OK',
    );
  }

  async releasePoll(jobId: string): Promise<void> {
    await this.run('release_poll', async () => {
      await (this.redis as unknown as Scripts).tryonDeleteIf(this.key('poll', jobId), this.instance);
    });
  }

  async publish(jobId: string, snapshot: TryonSnapshot): Promise<void> {
    await this.run('publish', async () => {
      await this.redis.publish(this.channel, JSON.stringify({ from: this.instance, jobId, snapshot }));
    });
  }

  onPublished(listener: (jobId: string, snapshot: TryonSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async firstDelivery(webhookId: string, ttlMs: number): Promise<boolean> {
    return this.run(
      'webhook_id',
      async () =>
        (await this.redis.set(this.key('webhook', webhookId), '1', 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) ===
        'OK',
    );
  }

  async garmentId(key: string): Promise<string | undefined> {
    return this.run('garment_id', async () => (await this.redis.get(this.key('garment', key))) ?? undefined);
  }

  async saveGarmentId(key: string, fileId: string): Promise<void> {
    await this.run('garment_id', async () => {
      await this.redis.set(this.key('garment', key), fileId);
    });
  }

  async forgetGarmentId(key: string, fileId: string): Promise<void> {
    await this.run('garment_id', async () => {
      await (this.redis as unknown as Scripts).tryonDeleteIf(this.key('garment', key), fileId);
    });
  }

  async lockGarment(key: string, ms: number): Promise<string | undefined> {
    const token = crypto.randomUUID();
    return this.run('garment_lock', async () =>
      (await this.redis.set(this.key('garment-lock', key), token, 'PX', Math.max(1, Math.round(ms)), 'NX')) === 'OK'
        ? token
        : undefined,
    );
  }

  async unlockGarment(key: string, token: string): Promise<void> {
    await this.run('garment_lock', async () => {
      await (this.redis as unknown as Scripts).tryonDeleteIf(this.key('garment-lock', key), token);
    });
  }

  async createHandoff(record: HandoffRecord, keepMs: number): Promise<void> {
    const ms = Math.max(1, Math.round(record.expiresAt + keepMs - Date.now()));
    // Two keys in two slots (Redis Cluster): the code's hash first, so the desktop's id never names a code not yet written.
    await this.run('handoff', async () => {
      const key = this.key('handoff', record.code);
      await this.redis.hset(key, {
        id: record.id,
        product: record.product,
        variant: record.variant ?? '',
        expiresAt: String(record.expiresAt),
      });
      await this.redis.pexpire(key, ms);
      await this.redis.set(this.key('handoff-id', record.id), record.code, 'PX', ms);
    });
  }

  async readHandoff(id: string): Promise<HandoffRecord | undefined> {
    const code = await this.run('handoff', () => this.redis.get(this.key('handoff-id', id)));
    return code ? this.handoffByCode(code) : undefined;
  }

  async handoffByCode(code: string): Promise<HandoffRecord | undefined> {
    const fields = await this.run('handoff', () => this.redis.hgetall(this.key('handoff', code)));
    if (!fields.id || !fields.expiresAt) return undefined;
    return {
      id: fields.id,
      code,
      product: fields.product ?? '',
      expiresAt: Number(fields.expiresAt),
      ...(fields.variant ? { variant: fields.variant } : {}),
      ...(fields.photo ? { photo: fields.photo } : {}),
      ...(fields.confirmation ? { confirmation: fields.confirmation } : {}),
      ...(fields.triesLeft ? { triesLeft: Number(fields.triesLeft) } : {}),
      ...(fields.confirmBy ? { confirmBy: Number(fields.confirmBy) } : {}),
      ...(fields.confirmed === '1' ? { confirmed: true } : {}),
    };
  }

  async receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt> {
    return this.run('handoff', () =>
      (this.redis as unknown as Scripts).tryonReceiveHandoff(
        this.key('handoff', code),
        photo,
        now,
        pairing.confirmation,
        pairing.triesLeft,
        pairing.confirmBy,
      ),
    );
  }

  /** The id names the code (a key in another slot, never changed once written), then one script judges the number. */
  async confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation> {
    const code = await this.run('handoff', () => this.redis.get(this.key('handoff-id', id)));
    if (!code) return { outcome: 'unknown' };
    const [outcome, value] = await this.run('handoff', () =>
      (this.redis as unknown as Scripts).tryonConfirmHandoff(this.key('handoff', code), number, now),
    );
    if (outcome === 'received') return { outcome, photo: String(value) };
    if (outcome === 'wrong') return { outcome, triesLeft: Number(value) };
    return { outcome: outcome as Exclude<HandoffConfirmation['outcome'], 'received' | 'wrong'> };
  }

  /** A per-minute window per client (rate-limiter-flexible: one atomic INCR + PEXPIRE). */
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

  /**
   * A forgotten photo is a key that lives as long as any handle naming it could. Its submits under
   * way are a sorted set beside it (besideKey: the same slot, the old key's name unchanged).
   */
  photoRevocations(now: () => number): PhotoRevocations {
    const forgotten = (photoId: string) => this.key('forgotten', photoId);
    const submits = (photoId: string) => besideKey(forgotten(photoId), ':submits');
    return {
      revoke: async (photoId, until) => {
        const ms = Math.round(until - now());
        if (ms <= 0) return;
        await this.run('photo_revocation', () =>
          (this.redis as unknown as Scripts).tryonMarkAtLeast(forgotten(photoId), ms),
        );
      },
      isRevoked: async (photoId) =>
        this.run('photo_revocation', async () => (await this.redis.exists(forgotten(photoId))) === 1),
      beginSubmit: async (photoId, ms) => {
        const ticket = crypto.randomUUID();
        const at = now();
        const granted = await this.run('photo_submit', () =>
          (this.redis as unknown as Scripts).tryonBeginSubmit(
            forgotten(photoId),
            submits(photoId),
            ticket,
            at,
            at + Math.max(1, Math.round(ms)),
          ),
        );
        return granted === 1 ? ticket : undefined;
      },
      endSubmit: async (photoId, ticket) => {
        await this.run('photo_submit', () => this.redis.zrem(submits(photoId), ticket));
      },
      submitsUnderWay: async (photoId) =>
        this.run('photo_submit', () => this.redis.zcount(submits(photoId), `(${now()}`, '+inf')),
    };
  }

  spendLedger(limits: SpendLimits, now: () => number): SpendLedger {
    return new RedisSpendLedger(this.redis, this.prefix, limits, now, (operation, work) => this.run(operation, work));
  }

  usageBook(now: () => number): UsageBook {
    return new RedisUsageBook(this.redis, this.prefix, now, (operation, work) => this.run(operation, work));
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

interface Scripts {
  tryonWriteStatus(key: string, ...args: (string | number)[]): Promise<[number, string[]]>;
  tryonSeedStatus(key: string, ...args: (string | number)[]): Promise<number>;
  tryonDeleteIf(key: string, value: string): Promise<number>;
  tryonMarkAtLeast(key: string, ms: number): Promise<number>;
  tryonBeginSubmit(forgotten: string, submits: string, ticket: string, now: number, lapses: number): Promise<number>;
  tryonReceiveHandoff(
    handoff: string,
    photo: string,
    now: number,
    confirmation: string,
    triesLeft: number,
    confirmBy: number,
  ): Promise<HandoffReceipt>;
  tryonConfirmHandoff(handoff: string, number: string, now: number): Promise<[string, string | number | undefined]>;
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
