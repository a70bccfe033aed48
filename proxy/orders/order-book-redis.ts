// The order book (order-book.ts) on Redis, shared by every instance and kept across restarts. All
// its keys share one hash tag (`{tryon:orders}`), so each script's keys are in one Redis Cluster
// slot. A day is a hash of counters and, per group, a set of exposed and a set of ordering browser
// hashes, each expiring a day after the book stops keeping it. An order is one atomic script: the
// delivery's and the order's marks checked and set, the counters added, the browser added to its
// group's set. A refund reads its order's entry, works out what it takes (refundOutcome, the same
// arithmetic as every store) and writes it with a script that does so only if the entry is still
// the one read: another instance's refund of the same order in between makes it read again.
import type { Redis } from 'ioredis';
import { taggedGroup } from '../cluster/redis-keys.js';
import type { StoreRun } from '../cluster/outages.js';
import {
  DELIVERY_KEEP_MS,
  GROUPS,
  ORDER_DAYS,
  ORDER_KEEP_MS,
  refundOutcome,
  type BookOutcome,
  type Group,
  type OrderBook,
  type OrderCounters,
  type OrderEntry,
  type OrderTally,
  type OrderWrite,
  type RefundWrite,
} from './order-book.js';

const DAY_SECONDS = 86_400;
const DAY_KEEP_SECONDS = (ORDER_DAYS + 1) * DAY_SECONDS;

/**
 * KEYS: delivery mark, order entry, day's counters, the ordering browsers' set of the order's group.
 * ARGV: delivery keep (ms), order keep (ms), entry, day keep (s), browser hash or '', then field/increment pairs.
 */
const ADD_ORDER = `
local seen = redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
if seen then return 0 end
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
for i = 6, #ARGV, 2 do redis.call('HINCRBYFLOAT', KEYS[3], ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', KEYS[3], ARGV[4])
if ARGV[5] ~= '' then
  redis.call('SADD', KEYS[4], ARGV[5])
  redis.call('EXPIRE', KEYS[4], ARGV[4])
end
return 1
`;

/**
 * KEYS: delivery mark, refund mark, order entry, the order day's counters.
 * ARGV: delivery keep (ms), the entry as read, the entry after the refund, day keep (s), then field/increment pairs.
 * Answers 1 counted, 0 duplicate, -1 unknown order, -2 the entry changed since it was read.
 */
const ADD_REFUND = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local entry = redis.call('GET', KEYS[3])
if not entry then return -1 end
if entry ~= ARGV[2] then return -2 end
local keep = redis.call('PTTL', KEYS[3])
if keep <= 0 then return -1 end
redis.call('SET', KEYS[3], ARGV[3], 'PX', keep)
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
redis.call('SET', KEYS[2], '1', 'PX', keep)
for i = 5, #ARGV, 2 do redis.call('HINCRBYFLOAT', KEYS[4], ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', KEYS[4], ARGV[4])
return 1
`;

/** KEYS: the sets of one group's browsers over a window's days. Answers how many distinct members they hold. */
const UNION_COUNT = `
if #KEYS == 0 then return 0 end
return #redis.call('SUNION', unpack(KEYS))
`;

/** The book's scripts by name, for the test that checks each keeps to its KEYS and one slot. */
export const ORDER_SCRIPTS = { tryonAddOrder: ADD_ORDER, tryonAddRefund: ADD_REFUND, tryonUnionCount: UNION_COUNT };

interface Scripts {
  tryonAddOrder(...args: (string | number)[]): Promise<number>;
  tryonAddRefund(...args: (string | number)[]): Promise<number>;
  tryonUnionCount(count: number, ...keys: string[]): Promise<number>;
}

export class RedisOrderBook implements OrderBook {
  private readonly scripts: Scripts;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: StoreRun,
  ) {
    redis.defineCommand('tryonAddOrder', { numberOfKeys: 4, lua: ADD_ORDER });
    redis.defineCommand('tryonAddRefund', { numberOfKeys: 4, lua: ADD_REFUND });
    // The number of keys varies with the window: given with each call.
    redis.defineCommand('tryonUnionCount', { lua: UNION_COUNT });
    this.scripts = redis as unknown as Scripts;
  }

  private key(...parts: string[]): string {
    return `${taggedGroup(this.prefix, 'orders')}:${parts.join(':')}`;
  }

  async addExposure(day: string, group: Group, browser: string | undefined): Promise<void> {
    const multi = this.redis.multi();
    if (browser) {
      multi.sadd(this.key('exposed', day, group), browser);
      multi.expire(this.key('exposed', day, group), DAY_KEEP_SECONDS);
    } else {
      multi.hincrbyfloat(this.key('day', day), `xn:${group}`, 1);
      multi.expire(this.key('day', day), DAY_KEEP_SECONDS);
    }
    await this.run('order_exposure', async () => checked(await multi.exec()));
  }

  async addOrder(order: OrderWrite): Promise<BookOutcome> {
    const pairs = Object.entries(order.counters).flatMap(([field, n]) => [field, n]);
    const counted = await this.run('order_add', () =>
      this.scripts.tryonAddOrder(
        this.key('delivery', order.delivery),
        this.key('order', order.order),
        this.key('day', order.day),
        this.key('ordering', order.day, order.browser?.group ?? 'none'),
        DELIVERY_KEEP_MS,
        ORDER_KEEP_MS,
        JSON.stringify(order.entry),
        DAY_KEEP_SECONDS,
        order.browser?.hash ?? '',
        ...pairs,
      ),
    );
    return counted === 1 ? 'counted' : 'duplicate';
  }

  async addRefund(refund: RefundWrite): Promise<BookOutcome> {
    // Another instance's refund of the same order between the read and the write: read again.
    for (let attempt = 0; attempt < 10; attempt++) {
      const read = await this.run('order_read', () => this.redis.get(this.key('order', refund.order)));
      if (read === null) return 'unknown_order';
      const { entry, counters } = refundOutcome(JSON.parse(read) as OrderEntry, refund.lines);
      const answer = await this.run('order_refund', () =>
        this.scripts.tryonAddRefund(
          this.key('delivery', refund.delivery),
          this.key('refund', refund.refund),
          this.key('order', refund.order),
          this.key('day', entry.d),
          DELIVERY_KEEP_MS,
          read,
          JSON.stringify(entry),
          DAY_KEEP_SECONDS,
          ...Object.entries(counters).flatMap(([field, n]) => [field, n]),
        ),
      );
      if (answer === 1) return 'counted';
      if (answer === 0) return 'duplicate';
      if (answer === -1) return 'unknown_order';
    }
    throw new Error('the refund could not be written: its order kept changing');
  }

  async tally(days: readonly string[]): Promise<OrderTally> {
    return this.run('order_tally', async () => {
      const pipeline = this.redis.pipeline();
      for (const day of days) pipeline.hgetall(this.key('day', day));
      for (const group of GROUPS) {
        for (const kind of ['exposed', 'ordering']) {
          const keys = days.map((day) => this.key(kind, day, group));
          // On a pipeline a script queues (and returns the pipeline): its answer comes with exec's.
          (pipeline as unknown as { tryonUnionCount(count: number, ...keys: string[]): unknown }).tryonUnionCount(
            keys.length,
            ...keys,
          );
        }
      }
      const answers = checked(await pipeline.exec());
      const counters: OrderCounters = {};
      for (const fields of answers.slice(0, days.length) as Record<string, string>[])
        for (const [field, n] of Object.entries(fields)) counters[field] = (counters[field] ?? 0) + Number(n);
      const [exposedTreatment, orderingTreatment, exposedHoldout, orderingHoldout] = answers
        .slice(days.length)
        .map(Number) as [number, number, number, number];
      return {
        exposedBrowsers: { treatment: exposedTreatment, holdout: exposedHoldout },
        orderingBrowsers: { treatment: orderingTreatment, holdout: orderingHoldout },
        counters,
      };
    });
  }
}

/** A MULTI's or pipeline's answers, or the first error among them. */
function checked(answers: [Error | null, unknown][] | null): unknown[] {
  if (!answers) throw new Error('the transaction was discarded');
  const failed = answers.find(([error]) => error)?.[0];
  if (failed) throw failed;
  return answers.map(([, value]) => value);
}
