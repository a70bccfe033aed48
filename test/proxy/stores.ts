// The same suites against both stores: one process's memory (createProxy's default) and Redis
// (a real redis-server, started once per test file on first use; each store gets its own key
// prefix so tests never see each other's keys).
import { after } from 'node:test';
import { randomUUID } from 'node:crypto';
import { connectRedisStore, type RedisStore } from '../../proxy/store/redis.js';
import type { SpendLedger, SpendLimits } from '../../proxy/spend-ledger.js';
import { MemorySpendLedger } from '../../proxy/spend-ledger.js';
import type { ProxyStore } from '../../proxy/store/store.js';
import { startRedis, type RedisServer } from './cluster.js';
import { startStack, type Stack } from './stack.js';

export const STORE_KINDS = ['memory', 'redis'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

let server: Promise<RedisServer> | undefined;
const opened: RedisStore[] = [];

after(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await (await server)?.close();
});

/** A fresh Redis store on this file's redis-server. */
export async function redisStore(): Promise<RedisStore> {
  server ??= startRedis();
  const store = await connectRedisStore((await server).url, { prefix: `test-${randomUUID()}:` });
  opened.push(store);
  return store;
}

/** The store of this kind for createProxy's `store` option (memory: the default, so none). */
export async function storeOf(kind: StoreKind): Promise<ProxyStore | undefined> {
  return kind === 'redis' ? redisStore() : undefined;
}

/** startStack with the proxy on a store of this kind. */
export async function stackOn(kind: StoreKind, options: Parameters<typeof startStack>[0] = {}): Promise<Stack> {
  const store = await storeOf(kind);
  return startStack({ ...options, proxy: { ...options.proxy, ...(store ? { store } : {}) } });
}

/** A spend ledger of this kind, as createProxy would make it. */
export async function ledgerOn(kind: StoreKind, limits: SpendLimits, now: () => number): Promise<SpendLedger> {
  return kind === 'redis' ? (await redisStore()).spendLedger(limits, now) : new MemorySpendLedger(limits, now);
}
