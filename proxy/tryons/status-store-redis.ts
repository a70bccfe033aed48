// Try-on statuses (status-store.ts) on Redis, shared by every instance: a hash per try-on written
// by a compare-and-set script (never backwards), the right to poll as SET NX PX, and a pub/sub
// channel that carries each new snapshot to the other instances' listeners.
import type { Redis } from 'ioredis';
import { DELETE_IF, keyOf } from '../cluster/redis-keys.js';
import type { StoreRun } from '../cluster/outages.js';
import type { Log } from '../operator/log.js';
import { STATUS_RANK, type TryonSnapshot } from './snapshot.js';
import type { StatusRecord, StatusWrite, TryonStatusStore } from './status-store.js';

/** KEYS[1] status hash; ARGV: snapshot json, rank, at, pushed, ownEvents, product, tier, ttl ms. Mirrors replaces() in status-store.ts. */
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

/** The first snapshot of a submitted try-on, unless another instance knows it already. ARGV: snapshot json, rank, at, product, tier, ttl ms, acceptedAt, plan json. */
const SEED_STATUS = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'snapshot', ARGV[1], 'rank', ARGV[2], 'at', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'product', ARGV[4], 'tier', ARGV[5]) end
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'acceptedAt', ARGV[7]) end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'plan', ARGV[8]) end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
`;

/** These scripts by name, for the test that checks each keeps to its KEYS and one slot. */
export const STATUS_SCRIPTS = {
  tryonWriteStatus: WRITE_STATUS,
  tryonSeedStatus: SEED_STATUS,
  tryonDeleteIf: DELETE_IF,
};

interface Scripts {
  tryonWriteStatus(key: string, ...args: (string | number)[]): Promise<[number, string[]]>;
  tryonSeedStatus(key: string, ...args: (string | number)[]): Promise<number>;
  tryonDeleteIf(key: string, value: string): Promise<number>;
}

function recordOf(fields: Record<string, string>): StatusRecord | undefined {
  if (!fields.snapshot) return undefined;
  return {
    snapshot: JSON.parse(fields.snapshot) as TryonSnapshot,
    pushed: fields.pushed === '1' || undefined,
    ownEvents: fields.ownEvents === '1' || undefined,
    product: fields.product,
    tier: fields.tier,
    acceptedAt: fields.acceptedAt ? Number(fields.acceptedAt) : undefined,
    plan: fields.plan ? (JSON.parse(fields.plan) as StatusRecord['plan']) : undefined,
  };
}

function pairs(list: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) fields[list[i]!] = list[i + 1]!;
  return fields;
}

export class RedisTryonStatuses implements TryonStatusStore {
  private readonly scripts: Scripts;
  private readonly channel: string;
  /** Tells this instance's own snapshots from the others' on the channel, and holds its poll rights. */
  private readonly instance = crypto.randomUUID();
  private readonly listeners = new Set<(jobId: string, snapshot: TryonSnapshot) => void>();

  constructor(
    private readonly redis: Redis,
    subscriber: Redis,
    private readonly prefix: string,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: StoreRun,
    private readonly log?: Log,
  ) {
    redis.defineCommand('tryonWriteStatus', { numberOfKeys: 1, lua: WRITE_STATUS });
    redis.defineCommand('tryonSeedStatus', { numberOfKeys: 1, lua: SEED_STATUS });
    redis.defineCommand('tryonDeleteIf', { numberOfKeys: 1, lua: DELETE_IF });
    this.scripts = redis as unknown as Scripts;
    this.channel = `${prefix}events`;
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
        this.log?.({ level: 'warn', event: 'store_event_unreadable' });
      }
    });
  }

  private key(kind: string, id: string): string {
    return keyOf(this.prefix, kind, id);
  }

  async readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return this.run('read_status', async () => recordOf(await this.redis.hgetall(this.key('status', jobId))));
  }

  async writeStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<StatusWrite> {
    return this.run('write_status', async () => {
      const { snapshot } = record;
      const [finished, fields] = await this.scripts.tryonWriteStatus(
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
      await this.scripts.tryonSeedStatus(
        this.key('status', jobId),
        JSON.stringify(snapshot),
        STATUS_RANK[snapshot.status],
        snapshot.at,
        record.product ?? '',
        record.tier ?? '',
        Math.max(1, Math.round(ttlMs)),
        record.acceptedAt ?? '',
        record.plan ? JSON.stringify(record.plan) : '',
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
      await this.scripts.tryonDeleteIf(this.key('poll', jobId), this.instance);
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
}
