// Forgotten photos (revocations.ts) on Redis, so every instance agrees: a forgotten photo is a
// key that lives as long as any handle naming it could, and its submits under way are a sorted
// set beside it (besideKey: the same slot, the old key's name unchanged). The fence is one script
// (BEGIN_SUBMIT): a submit is let out and counted only while the photo is not forgotten.
import type { Redis } from 'ioredis';
import { besideKey, keyOf } from '../cluster/redis-keys.js';
import type { StoreRun } from '../cluster/outages.js';
import type { PhotoRevocations } from './revocations.js';

/** Marks KEYS[1] for ARGV[1] ms unless it is marked for longer already. */
const MARK_AT_LEAST = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1
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

/** These scripts by name, for the test that checks each keeps to its KEYS and one slot. */
export const REVOCATION_SCRIPTS = { tryonMarkAtLeast: MARK_AT_LEAST, tryonBeginSubmit: BEGIN_SUBMIT };

interface Scripts {
  tryonMarkAtLeast(key: string, ms: number): Promise<number>;
  tryonBeginSubmit(forgotten: string, submits: string, ticket: string, now: number, lapses: number): Promise<number>;
}

/** Forgotten photos on `redis` under the store's `prefix`, each operation run by the store (`run`). */
export function redisRevocations(redis: Redis, prefix: string, run: StoreRun, now: () => number): PhotoRevocations {
  redis.defineCommand('tryonMarkAtLeast', { numberOfKeys: 1, lua: MARK_AT_LEAST });
  redis.defineCommand('tryonBeginSubmit', { numberOfKeys: 2, lua: BEGIN_SUBMIT });
  const scripts = redis as unknown as Scripts;
  const forgotten = (photoId: string) => keyOf(prefix, 'forgotten', photoId);
  const submits = (photoId: string) => besideKey(forgotten(photoId), ':submits');
  return {
    revoke: async (photoId, until) => {
      const ms = Math.round(until - now());
      if (ms <= 0) return;
      await run('photo_revocation', () => scripts.tryonMarkAtLeast(forgotten(photoId), ms));
    },
    isRevoked: async (photoId) => run('photo_revocation', async () => (await redis.exists(forgotten(photoId))) === 1),
    beginSubmit: async (photoId, ms) => {
      const ticket = crypto.randomUUID();
      const at = now();
      const granted = await run('photo_submit', () =>
        scripts.tryonBeginSubmit(forgotten(photoId), submits(photoId), ticket, at, at + Math.max(1, Math.round(ms))),
      );
      return granted === 1 ? ticket : undefined;
    },
    endSubmit: async (photoId, ticket) => {
      await run('photo_submit', () => redis.zrem(submits(photoId), ticket));
    },
    submitsUnderWay: async (photoId) => run('photo_submit', () => redis.zcount(submits(photoId), `(${now()}`, '+inf')),
  };
}
