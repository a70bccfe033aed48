// The order book (order-book.ts) in the shop's Durable Object, both sides of the wire: the
// isolate's calls and the shop object's tables. The object runs one event at a time and each
// operation is synchronous SQL, so an order's marks, counters and browser are one step across every
// isolate, and a refund reads and rewrites its order's entry in the same step.
import {
  DELIVERY_KEEP_MS,
  ORDER_KEEP_MS,
  oldestOrderDay,
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
import {
  firstRow,
  liveRow,
  type Call,
  type ShopCall,
  type ShopTables,
  type SqlStorage,
} from '../cluster/durable-wire.js';

export function durableOrderBook(call: ShopCall): OrderBook {
  return {
    addExposure: async (day, group, browser) => {
      await call('orderExposure', { day, group, browser: browser ?? null });
    },
    addOrder: (order) => call<BookOutcome>('orderAdd', { order }),
    addRefund: (refund) => call<BookOutcome>('orderRefund', { refund }),
    tally: (days) => call<OrderTally>('orderTally', { days }),
  };
}

/** The book's tables in the shop object. */
export class OrderTables implements ShopTables {
  readonly schema = [
    'CREATE TABLE IF NOT EXISTS order_counter (day TEXT NOT NULL, field TEXT NOT NULL, n REAL NOT NULL, PRIMARY KEY (day, field))',
    // kind: x (exposed) or o (ordering); one row per browser hash per day and group.
    'CREATE TABLE IF NOT EXISTS order_browser (day TEXT NOT NULL, kind TEXT NOT NULL, grp TEXT NOT NULL, browser TEXT NOT NULL, PRIMARY KEY (kind, grp, day, browser))',
    'CREATE TABLE IF NOT EXISTS order_entry (id TEXT PRIMARY KEY, entry TEXT NOT NULL, until INTEGER NOT NULL)',
    // Deliveries and refunds already counted.
    'CREATE TABLE IF NOT EXISTS order_mark (id TEXT PRIMARY KEY, until INTEGER NOT NULL)',
  ];

  readonly operations = {
    orderExposure: ({ now, day, group, browser }: Call & { day: string; group: Group; browser: string | null }) =>
      this.exposure(now, day, group, browser),
    orderAdd: ({ now, order }: Call & { order: OrderWrite }) => this.addOrder(now, order),
    orderRefund: ({ now, refund }: Call & { refund: RefundWrite }) => this.addRefund(now, refund),
    orderTally: ({ days }: Call & { days: string[] }) => this.tally(days),
  };

  constructor(
    private readonly sql: SqlStorage,
    /** The shop object's sweep of every part (at most once a minute), which a write asks for first. */
    private readonly sweepAll: (now: number) => void,
  ) {}

  sweep(now: number): void {
    const oldest = oldestOrderDay(now);
    this.sql.exec('DELETE FROM order_counter WHERE day < ?', oldest);
    this.sql.exec('DELETE FROM order_browser WHERE day < ?', oldest);
    this.sql.exec('DELETE FROM order_entry WHERE until <= ?', now);
    this.sql.exec('DELETE FROM order_mark WHERE until <= ?', now);
  }

  private count(day: string, counters: OrderCounters): void {
    for (const [field, n] of Object.entries(counters))
      this.sql.exec(
        'INSERT INTO order_counter (day, field, n) VALUES (?, ?, ?) ON CONFLICT (day, field) DO UPDATE SET n = n + excluded.n',
        day,
        field,
        n,
      );
  }

  private browser(day: string, kind: 'x' | 'o', group: Group, browser: string): void {
    this.sql.exec(
      'INSERT OR IGNORE INTO order_browser (day, kind, grp, browser) VALUES (?, ?, ?, ?)',
      day,
      kind,
      group,
      browser,
    );
  }

  private mark(id: string, until: number): void {
    this.sql.exec('INSERT OR REPLACE INTO order_mark (id, until) VALUES (?, ?)', id, until);
  }

  private exposure(now: number, day: string, group: Group, browser: string | null): void {
    this.sweepAll(now);
    if (browser) this.browser(day, 'x', group, browser);
    else this.count(day, { [`xn:${group}`]: 1 });
  }

  private addOrder(now: number, order: OrderWrite): BookOutcome {
    this.sweepAll(now);
    const delivery = `w:${order.delivery}`;
    const seen =
      liveRow(this.sql, 'order_mark', 'id', delivery, now) || liveRow(this.sql, 'order_entry', 'id', order.order, now);
    this.mark(delivery, now + DELIVERY_KEEP_MS);
    if (seen) return 'duplicate';
    this.sql.exec(
      'INSERT OR REPLACE INTO order_entry (id, entry, until) VALUES (?, ?, ?)',
      order.order,
      JSON.stringify(order.entry),
      now + ORDER_KEEP_MS,
    );
    this.count(order.day, order.counters);
    if (order.browser) this.browser(order.day, 'o', order.browser.group, order.browser.hash);
    return 'counted';
  }

  private addRefund(now: number, refund: RefundWrite): BookOutcome {
    this.sweepAll(now);
    const delivery = `w:${refund.delivery}`;
    const mark = `f:${refund.refund}`;
    if (liveRow(this.sql, 'order_mark', 'id', delivery, now) || liveRow(this.sql, 'order_mark', 'id', mark, now))
      return 'duplicate';
    const row = firstRow(
      this.sql.exec<{ entry: string; until: number }>(
        'SELECT entry, until FROM order_entry WHERE id = ?',
        refund.order,
      ),
    );
    if (!row || row.until <= now) return 'unknown_order';
    const { entry, counters } = refundOutcome(JSON.parse(row.entry) as OrderEntry, refund.lines);
    this.sql.exec('UPDATE order_entry SET entry = ? WHERE id = ?', JSON.stringify(entry), refund.order);
    this.mark(delivery, now + DELIVERY_KEEP_MS);
    this.mark(mark, row.until);
    this.count(entry.d, counters);
    return 'counted';
  }

  /** A window's days are consecutive dates: one range, whatever the window's length. */
  private tally(days: string[]): OrderTally {
    const counters: OrderCounters = {};
    const from = [...days].sort()[0] ?? '';
    const to = [...days].sort().at(-1) ?? '';
    const distinct = (kind: 'x' | 'o', group: Group) =>
      days.length === 0
        ? 0
        : firstRow(
            this.sql.exec<{ n: number }>(
              'SELECT COUNT(DISTINCT browser) AS n FROM order_browser WHERE kind = ? AND grp = ? AND day >= ? AND day <= ?',
              kind,
              group,
              from,
              to,
            ),
          )!.n;
    if (days.length > 0)
      for (const row of this.sql.exec<{ field: string; n: number }>(
        'SELECT field, SUM(n) AS n FROM order_counter WHERE day >= ? AND day <= ? GROUP BY field',
        from,
        to,
      ))
        counters[row.field] = row.n;
    return {
      exposedBrowsers: { treatment: distinct('x', 'treatment'), holdout: distinct('x', 'holdout') },
      orderingBrowsers: { treatment: distinct('o', 'treatment'), holdout: distinct('o', 'holdout') },
      counters,
    };
  }
}
