// The same suites against every store: one process's memory (createProxy's default), Redis (a
// real redis-server, started once per test file on first use; each store gets its own key prefix
// so tests never see each other's keys) and Durable Objects (the objects of the Worker bundle in
// real workerd, Miniflare started once per test file on first use, reached from Node over HTTP
// through a bridge Worker; each store gets its own shop object, and try-on objects are per job).
import { after } from 'node:test';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectRedisStore, type RedisStore } from '../../proxy/store/redis.js';
import { DurableStore, type DurableObjectNamespace, type DurableStoreOptions } from '../../proxy/store/durable.js';
import type { ServedObjects } from '../../scripts/worker.js';
import type { SpendLedger, SpendLimits } from '../../proxy/money/spend-ledger.js';
import { MemorySpendLedger } from '../../proxy/money/spend-ledger-memory.js';
import type { ProxyStore } from '../../proxy/store/store.js';
import { startRedis, type RedisServer } from './cluster.js';
import { startStack, type Stack } from './stack.js';

const ALL_KINDS = ['memory', 'redis', 'durable'] as const;
export type StoreKind = (typeof ALL_KINDS)[number];

/**
 * The stores this run tests: all three, or those TRYON_TEST_STORES names. The node22 and node24
 * suites name memory and redis: the Durable Objects store runs only inside workerd, never on a
 * shop's Node server, so another Node line under Miniflare's bindings would test Miniflare, not it.
 */
export const STORE_KINDS: readonly StoreKind[] = storeKindsFrom(process.env.TRYON_TEST_STORES);

/** The stores several instances share (memory holds one process's data only). */
export const SHARED_STORE_KINDS = STORE_KINDS.filter((kind) => kind !== 'memory') as ('redis' | 'durable')[];

function storeKindsFrom(value: string | undefined): readonly StoreKind[] {
  if (value === undefined || value.trim() === '') return ALL_KINDS;
  const named = value.split(',').map((kind) => kind.trim());
  const unknown = named.filter((kind) => !(ALL_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0)
    throw new Error(`TRYON_TEST_STORES names ${unknown.join(', ')}; the stores are ${ALL_KINDS.join(', ')}.`);
  return ALL_KINDS.filter((kind) => named.includes(kind));
}

let server: Promise<RedisServer> | undefined;
const opened: RedisStore[] = [];
let workerd:
  | Promise<{ served: ServedObjects; dir: string; tryons: DurableObjectNamespace; shop: DurableObjectNamespace }>
  | undefined;

after(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await (await server)?.close();
  const running = await workerd;
  if (running) {
    await running.served.close();
    await rm(running.dir, { recursive: true, force: true });
  }
});

/** workerd's last lines, printed when a durable store says it is unavailable. */
const workerdLines: string[] = [];

/**
 * A namespace binding over the bridge (scripts/worker.ts, serveDurableObjects): naming an object
 * is local, and each stub's fetch is one HTTP request that workerd hands to that object, so every
 * store operation still crosses a real connection into real Durable Objects.
 */
function bridged(url: string, binding: string): DurableObjectNamespace {
  return {
    idFromName: (name: string) => name,
    get: (id: unknown) => ({
      fetch: (input: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('x-durable-binding', binding);
        headers.set('x-durable-name', String(id));
        headers.set('x-durable-url', input);
        return fetch(url, { ...init, headers });
      },
    }),
  };
}

/**
 * The Durable Object namespaces of this file's workerd, as a Worker's bindings. Miniflare is
 * imported here, not at the top: files run under node22 and node24 never start workerd.
 */
export async function durableNamespaces(): Promise<{ tryons: DurableObjectNamespace; shop: DurableObjectNamespace }> {
  workerd ??= (async () => {
    const { buildWorker, serveDurableObjects } = await import('../../scripts/worker.js');
    const dir = await mkdtemp(join(tmpdir(), 'tryon-stores-workerd-'));
    const served = await serveDurableObjects(await buildWorker({ outFile: join(dir, 'worker.js') }), {
      onLine: (line) => {
        workerdLines.push(line);
        if (workerdLines.length > 40) workerdLines.shift();
      },
    });
    return { served, dir, tryons: bridged(served.url, 'TRYON_TRYONS'), shop: bridged(served.url, 'TRYON_SHOP') };
  })();
  const { tryons, shop } = await workerd;
  return { tryons, shop };
}

/**
 * What a test's durable store says of an outage (the proxy's own log is the test's to read): the
 * error, and workerd's last lines, so a store that stops answering mid-file says why.
 */
function outageLog(entry: Record<string, unknown>): void {
  if (entry.event !== 'store_unavailable') return;
  console.error(
    `durable store unavailable: ${JSON.stringify(entry)}\nworkerd's last lines:\n${workerdLines.join('\n') || '(none)'}`,
  );
}

/** A fresh Durable Objects store (its own shop object) on this file's workerd. */
export async function durableStore(options: DurableStoreOptions = {}): Promise<DurableStore> {
  const { tryons, shop } = await durableNamespaces();
  return new DurableStore(tryons, shop, { shop: randomUUID(), log: outageLog, ...options });
}

/**
 * How long a test's Redis command may take before the store gives up (the proxy's own default is
 * 1 s). A burst of 150 uploads on two cores shared with other suites stalls the event loop past a
 * second, and a timer then fires before the answer already waiting in the socket is read: a 503
 * store_unavailable that says nothing about Redis. Redis that does not answer at all is tested
 * with the proxy's own default (cluster-redis.test.ts).
 */
const COMMAND_TIMEOUT_MS = 10_000;

/** A fresh Redis store on this file's redis-server. */
export async function redisStore(): Promise<RedisStore> {
  server ??= startRedis();
  const store = await connectRedisStore((await server).url, {
    prefix: `test-${randomUUID()}:`,
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
  });
  opened.push(store);
  return store;
}

/**
 * `count` stores of this kind over the same data, as `count` instances would open them: Redis
 * connections with one key prefix, Durable Object stores naming one shop object. (Memory holds one
 * process's data only, so it has no such stores.)
 */
export async function sharedStores(kind: 'redis' | 'durable', count: number): Promise<ProxyStore[]> {
  if (kind === 'durable') {
    const { tryons, shop } = await durableNamespaces();
    const name = randomUUID();
    return Array.from({ length: count }, () => new DurableStore(tryons, shop, { shop: name, log: outageLog }));
  }
  server ??= startRedis();
  const { url } = await server;
  const prefix = `test-${randomUUID()}:`;
  const stores = await Promise.all(
    Array.from({ length: count }, () => connectRedisStore(url, { prefix, commandTimeoutMs: COMMAND_TIMEOUT_MS })),
  );
  opened.push(...stores);
  return stores;
}

/** The store of this kind for createProxy's `store` option (memory: the default, so none). */
export async function storeOf(kind: StoreKind): Promise<ProxyStore | undefined> {
  if (kind === 'redis') return redisStore();
  if (kind === 'durable') return durableStore();
  return undefined;
}

/** startStack with the proxy on a store of this kind. */
export async function stackOn(kind: StoreKind, options: Parameters<typeof startStack>[0] = {}): Promise<Stack> {
  const store = await storeOf(kind);
  return startStack({ ...options, proxy: { ...options.proxy, ...(store ? { store } : {}) } });
}

/**
 * `count` spend ledgers of this kind on one store, as `count` instances sharing it would make them
 * (memory: one process, so the same ledger each time).
 */
export async function sharedLedgers(
  kind: StoreKind,
  count: number,
  limits: SpendLimits,
  now: () => number,
): Promise<SpendLedger[]> {
  if (kind === 'memory') {
    const one = new MemorySpendLedger(limits, now);
    return Array.from({ length: count }, () => one);
  }
  const store = kind === 'redis' ? await redisStore() : await durableStore();
  return Array.from({ length: count }, () => store.spendLedger(limits, now));
}

/** A spend ledger of this kind, as createProxy would make it. */
export async function ledgerOn(kind: StoreKind, limits: SpendLimits, now: () => number): Promise<SpendLedger> {
  if (kind === 'memory') return new MemorySpendLedger(limits, now);
  return (kind === 'redis' ? await redisStore() : await durableStore()).spendLedger(limits, now);
}
