// Hand-offs (phone-handoffs.ts) on Redis, so a phone's upload reaches whichever instance serves the
// desktop: a hash per code and the code by the desktop's id. Taking a code's photo and judging a
// typed number are each one Lua script, mirroring receiptFor() and confirmationFor().
import type { Redis } from 'ioredis';
import { keyOf } from '../cluster/redis-keys.js';
import type { StoreRun } from '../cluster/outages.js';
import type {
  HandoffConfirmation,
  HandoffPairing,
  HandoffReceipt,
  HandoffRecord,
  HandoffStore,
} from './phone-handoffs.js';

/**
 * KEYS[1]: the hand-off's hash (by its code). ARGV: photo handle, now, confirmation number, tries,
 * confirm by. Gives the photo and its pairing to a waiting hand-off, once: mirrors receiptFor() in
 * phone-handoffs.ts.
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
 * confirmationFor() in phone-handoffs.ts does, in one step: the right number marks the hand-off
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

/** These scripts by name, for the test that checks each keeps to its KEYS and one slot. */
export const HANDOFF_SCRIPTS = { tryonReceiveHandoff: RECEIVE_HANDOFF, tryonConfirmHandoff: CONFIRM_HANDOFF };

interface Scripts {
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

export class RedisHandoffs implements HandoffStore {
  private readonly scripts: Scripts;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: StoreRun,
  ) {
    redis.defineCommand('tryonReceiveHandoff', { numberOfKeys: 1, lua: RECEIVE_HANDOFF });
    redis.defineCommand('tryonConfirmHandoff', { numberOfKeys: 1, lua: CONFIRM_HANDOFF });
    this.scripts = redis as unknown as Scripts;
  }

  private key(kind: string, id: string): string {
    return keyOf(this.prefix, kind, id);
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
      this.scripts.tryonReceiveHandoff(
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
      this.scripts.tryonConfirmHandoff(this.key('handoff', code), number, now),
    );
    if (outcome === 'received') return { outcome, photo: String(value) };
    if (outcome === 'wrong') return { outcome, triesLeft: Number(value) };
    return { outcome: outcome as Exclude<HandoffConfirmation['outcome'], 'received' | 'wrong'> };
  }
}
