// The spend ledger (spend-ledger.ts) on Redis, so every instance reserves against one budget,
// one per-photo cap and one per-client cap, and a restart forgets nothing. reserve and settle
// are each one Lua script: atomic across instances, exactly as the memory ledger is on one event
// loop (same checks, same order). A reservation lives until its photo handle expires (no retry
// can come later); the day's counters live two days. Expiries are relative to the ledger's own
// clock (PEXPIRE keepUntil − now), and every decision compares against that clock, as in memory.
// Every key a script touches is in its KEYS, and all of them carry the tag `{tryon:spend}`, so the
// scripts run on Redis Cluster too (the ledger is one budget: it lives in one slot).
import type { Redis } from 'ioredis';
import { taggedGroup } from '../cluster/redis-keys.js';
import {
  utcDay,
  type Reservation,
  type SpendClaim,
  type SpendLedger,
  type SpendLimits,
  type SpendRefusal,
  type SpendUsage,
  type SubmitOutcome,
} from './spend-ledger.js';

/**
 * KEYS: held, the photo's set (its try-ons, or its colour drafts for kind colour_preview), day
 * hash, clients hash, the first look's held. ARGV: key, day, photoId, client, credits, keepUntil,
 * now, the set's cap, perClient, tryons, credits, kind, the refusal past the set's cap, the first
 * look's key ('' for none), its credits.
 * The first look is reserved in the same step, in credits only, when the credits still cover it;
 * a retry gets it only if it is still held. Answer: {granted, retry or refusal, first look: 0 none, 1 new, 2 held before}.
 */
const RESERVE = `
local held, photo, day, clients, pheld = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local key, now, keepUntil = ARGV[1], tonumber(ARGV[7]), tonumber(ARGV[6])
local function holdAgain()
  if ARGV[14] == '' or redis.call('EXISTS', pheld) == 0 then return 0 end
  local kept = tonumber(redis.call('HGET', pheld, 'keepUntil'))
  if kept <= now then return 0 end
  redis.call('HINCRBY', pheld, 'holders', 1)
  if keepUntil > kept then
    redis.call('HSET', pheld, 'keepUntil', ARGV[6])
    redis.call('PEXPIRE', pheld, math.max(1, keepUntil - now))
  end
  return 2
end
if redis.call('EXISTS', held) == 1 then
  local kept = tonumber(redis.call('HGET', held, 'keepUntil'))
  if kept > now then
    redis.call('HINCRBY', held, 'holders', 1)
    if keepUntil > kept then
      redis.call('HSET', held, 'keepUntil', ARGV[6])
      redis.call('PEXPIRE', held, math.max(1, keepUntil - now))
    end
    return {1, 1, holdAgain()}
  end
  redis.call('SREM', photo, key)
  redis.call('DEL', held)
end
if redis.call('SCARD', photo) >= tonumber(ARGV[8]) then return {0, ARGV[13]} end
if tonumber(redis.call('HGET', clients, ARGV[4]) or '0') >= tonumber(ARGV[9]) then return {0, 'client_daily'} end
if tonumber(redis.call('HGET', day, 'tryons') or '0') >= tonumber(ARGV[10]) then return {0, 'daily_tryons'} end
if tonumber(redis.call('HGET', day, 'credits') or '0') + tonumber(ARGV[5]) > tonumber(ARGV[11]) then return {0, 'daily_credits'} end
redis.call('HINCRBY', day, 'tryons', 1)
redis.call('HINCRBYFLOAT', day, 'credits', ARGV[5])
redis.call('HINCRBY', clients, ARGV[4], 1)
redis.call('EXPIRE', day, 172800)
redis.call('EXPIRE', clients, 172800)
redis.call('SADD', photo, key)
local photoTtl = redis.call('PTTL', photo)
if photoTtl < 0 or now + photoTtl < keepUntil then redis.call('PEXPIRE', photo, math.max(1, keepUntil - now)) end
redis.call('HSET', held, 'day', ARGV[2], 'photoId', ARGV[3], 'client', ARGV[4], 'credits', ARGV[5], 'keepUntil', ARGV[6], 'holders', 1, 'confirmed', 0, 'kind', ARGV[12])
redis.call('PEXPIRE', held, math.max(1, keepUntil - now))
local again = holdAgain()
if again > 0 or ARGV[14] == '' then return {1, 0, again} end
if tonumber(redis.call('HGET', day, 'credits')) + tonumber(ARGV[15]) > tonumber(ARGV[11]) then return {1, 0, 0} end
redis.call('HINCRBYFLOAT', day, 'credits', ARGV[15])
redis.call('HSET', pheld, 'day', ARGV[2], 'photoId', ARGV[3], 'client', ARGV[4], 'credits', ARGV[15], 'keepUntil', ARGV[6], 'holders', 1, 'confirmed', 0, 'kind', 'preview')
redis.call('PEXPIRE', pheld, math.max(1, keepUntil - now))
return {1, 0, 1}
`;

/**
 * KEYS: held, photo set (its try-ons', or its colour drafts'), today's day hash, today's clients
 * hash. ARGV: key, outcome, today, photoId, kind.
 * The photo set's name comes from the caller's read of the held hash: should that read be stale,
 * nothing is written and -1 asks for another. The field `confirmed` (its stored name) is 1 once
 * the try-on may have started upstream (accepted, or an unknown outcome): never given back. A
 * first look (kind preview) gives back its credits only.
 */
const SETTLE = `
local held, photo, day, clients = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if redis.call('EXISTS', held) == 0 then return 0 end
if redis.call('HGET', held, 'photoId') ~= ARGV[4] or (redis.call('HGET', held, 'kind') or 'tryon') ~= ARGV[5] then return -1 end
local holders = tonumber(redis.call('HGET', held, 'holders')) - 1
if holders < 0 then holders = 0 end
redis.call('HSET', held, 'holders', holders)
if ARGV[2] ~= 'refused' then redis.call('HSET', held, 'confirmed', 1) end
if redis.call('HGET', held, 'confirmed') == '1' or holders > 0 then return 0 end
local fields = redis.call('HMGET', held, 'day', 'client', 'credits')
redis.call('DEL', held)
if ARGV[5] ~= 'preview' then redis.call('SREM', photo, ARGV[1]) end
if fields[1] == ARGV[3] then
  redis.call('HINCRBYFLOAT', day, 'credits', -tonumber(fields[3]))
  if ARGV[5] ~= 'preview' then
    redis.call('HINCRBY', day, 'tryons', -1)
    if redis.call('HINCRBY', clients, fields[2], -1) <= 0 then redis.call('HDEL', clients, fields[2]) end
  end
end
return 1
`;

/** The ledger's scripts by name, for the test that checks each keeps to its KEYS and one slot. */
export const LEDGER_SCRIPTS = { tryonReserve: RESERVE, tryonSettle: SETTLE };

interface Scripts {
  tryonReserve(...args: (string | number)[]): Promise<[number, number | string, number?]>;
  tryonSettle(...args: (string | number)[]): Promise<number>;
}

export class RedisSpendLedger implements SpendLedger {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly limits: SpendLimits,
    private readonly now: () => number,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: <T>(operation: string, work: () => Promise<T>) => Promise<T>,
  ) {
    redis.defineCommand('tryonReserve', { numberOfKeys: 5, lua: RESERVE });
    redis.defineCommand('tryonSettle', { numberOfKeys: 4, lua: SETTLE });
  }

  private key(...parts: string[]): string {
    return `${taggedGroup(this.prefix, 'spend')}:${parts.join(':')}`;
  }

  async reserve(claim: SpendClaim): Promise<Reservation> {
    const now = this.now();
    const day = utcDay(now);
    // A colour draft's reservations go in the photo's `colours` set, its try-ons' in `photo` (stored key names).
    const colourDraft = claim.kind === 'colour_preview';
    const [granted, detail, preview] = await this.run('spend_reserve', () =>
      (this.redis as unknown as Scripts).tryonReserve(
        this.key('held', claim.key),
        this.key(colourDraft ? 'colours' : 'photo', claim.photoId),
        this.key('day', day),
        this.key('clients', day),
        this.key('held', claim.preview?.key ?? claim.key),
        claim.key,
        day,
        claim.photoId,
        claim.client,
        claim.credits,
        Math.round(claim.keepUntil),
        now,
        colourDraft ? (claim.colourPreviewCap ?? 0) : this.limits.tryonsPerPhoto,
        this.limits.clientDailyTryons,
        this.limits.dailyTryons,
        this.limits.dailyCredits,
        colourDraft ? 'colour_preview' : 'tryon',
        colourDraft ? 'colour_preview_limit' : 'photo_limit',
        claim.preview?.key ?? '',
        claim.preview?.credits ?? 0,
      ),
    );
    if (granted !== 1) return { granted: false, refusal: detail as SpendRefusal };
    return { granted: true, retry: detail === 1, ...(preview ? { preview: { retry: preview === 2 } } : {}) };
  }

  async settle(key: string, outcome: SubmitOutcome): Promise<void> {
    const day = utcDay(this.now());
    const held = this.key('held', key);
    // The photo's set is named by the reservation; a reservation made again in between (another
    // photo under the same key cannot happen, but the script checks) asks for one more read.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [photoId, kind = 'tryon'] = await this.run('spend_settle', () => this.redis.hmget(held, 'photoId', 'kind'));
      if (photoId === null || photoId === undefined) return;
      const set = this.key(kind === 'colour_preview' ? 'colours' : 'photo', photoId);
      const settled = await this.run('spend_settle', () =>
        (this.redis as unknown as Scripts).tryonSettle(
          held,
          set,
          this.key('day', day),
          this.key('clients', day),
          key,
          outcome,
          day,
          photoId,
          kind ?? 'tryon',
        ),
      );
      if (settled !== -1) return;
    }
    // Kept rather than given back (the budget over-counts rather than under-counts), and said.
    await this.run('spend_settle', () => Promise.reject(new Error('the reservation changed under every read of it')));
  }

  async usage(): Promise<SpendUsage> {
    const day = utcDay(this.now());
    const [tryons, credits] = await this.run('spend_usage', () =>
      this.redis.hmget(this.key('day', day), 'tryons', 'credits'),
    );
    return { day, tryons: Number(tryons ?? 0), credits: Number(credits ?? 0) };
  }
}
